//! stub
use super::Judged;
pub fn analyze(_src: &str) -> Judged {
    let mut j = Judged::default();
    j.opaque("not analysed");
    j
}

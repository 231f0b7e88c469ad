//! stub
use super::Judged;
pub fn perl(_src: &str) -> Judged {
    let mut j = Judged::default();
    j.opaque("not analysed");
    j
}
pub fn awk(_src: &str) -> Judged {
    let mut j = Judged::default();
    j.opaque("not analysed");
    j
}

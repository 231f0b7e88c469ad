//! `doctor`: checks an installation for the problems a user would otherwise debug by hand.

use anyhow::{bail, Result};
use clap::Args;

#[derive(Args, Debug)]
pub struct DoctorArgs {}

pub fn run(_args: DoctorArgs) -> Result<i32> {
    bail!("doctor is not available in this build yet")
}

//! `install-hooks` and `uninstall-hooks`: programmer-hook's entries in Claude Code's
//! `settings.json`.

use anyhow::{bail, Result};
use clap::Args;

#[derive(Args, Debug)]
pub struct InstallHooksArgs {}

#[derive(Args, Debug)]
pub struct UninstallHooksArgs {}

pub fn install_hooks(_args: InstallHooksArgs) -> Result<i32> {
    bail!("install-hooks is not available in this build yet")
}

pub fn uninstall_hooks(_args: UninstallHooksArgs) -> Result<i32> {
    bail!("uninstall-hooks is not available in this build yet")
}

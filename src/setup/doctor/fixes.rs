//! How the product was installed, and the commands that fix an install made that way.
//!
//! Three ways are told apart: the Claude Code plugin (Claude Code's own records, see
//! [`plugin::installs`]); `install.sh`, which records in the state dir's
//! [`RECORD`] whether it built the binary from its checkout or was given one with
//! `--binary`, the checkout, the prefix and the binary it came from; and neither recorded
//! (an older `install.sh`, or entries written by `install-hooks` by hand), where this
//! binary's build checkout is named only while it still exists.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::engine::paths::Places;
use crate::setup::installation::{self, BINARY_NAME, METHOD, RECORD};
use crate::setup::shell::{is_executable, quote_path};
use crate::setup::{npm, plugin};

use super::VERSION;

/// What `install.sh` records (see `record_install` in `install.sh`), or `programmer-hook
/// install` (method [`METHOD`], the binary and the npm package).
#[derive(Debug, Clone, Deserialize)]
struct Record {
    /// `source` (built from the checkout), `binary` (`--binary PATH`) or `command`.
    method: String,
    /// The checkout `install.sh` ran from: the pack was copied from it.
    #[serde(default)]
    checkout: PathBuf,
    #[serde(default)]
    prefix: PathBuf,
    /// The installed binary (`PREFIX/bin/programmer-hook`; the one the entries run).
    binary: PathBuf,
    /// The binary it was copied from: the build's, or the one `--binary` named.
    #[serde(default)]
    from: PathBuf,
    /// The npm package `programmer-hook install` ran from.
    #[serde(default)]
    package: Option<PathBuf>,
}

/// How the files `install.sh` owns (the binary on PATH, the hook entries, the pack in the
/// config dir, the state files) were installed.
#[derive(Debug, Clone)]
enum Script {
    /// `install.sh`, building the binary in its checkout.
    Source { checkout: PathBuf, prefix: PathBuf },
    /// `install.sh --binary FROM`.
    Binary {
        checkout: PathBuf,
        prefix: PathBuf,
        from: PathBuf,
    },
    /// `programmer-hook install`, from the npm package when `package` is set.
    Command {
        binary: PathBuf,
        package: Option<PathBuf>,
    },
    /// Nothing recorded.
    Unrecorded,
}

/// The commands that fix this installation, as it was made.
#[derive(Debug, Clone)]
pub struct Fixes {
    script: Script,
    /// Where the record was read, or why it could not be.
    record: Result<Option<PathBuf>, String>,
    /// The id of the enabled plugin.
    plugin: Option<String>,
    /// A programmer-hook that runs, to name in `install-hooks` and `uninstall-hooks`.
    runner: PathBuf,
    /// ` --settings FILE` when the settings checked are not the default ones.
    settings_arg: String,
    home: PathBuf,
    /// What turns Claude Code's sandbox on for this install.
    sandbox_on: String,
}

impl Fixes {
    /// Tells how the product was installed: `by_plugin` is the enabled plugin, `on_path`
    /// the programmer-hook on `PATH`.
    pub fn new(
        places: &Places,
        settings: &Path,
        by_plugin: Option<&plugin::Install>,
        on_path: Option<&Path>,
    ) -> Fixes {
        let record_file = places.state_dir.join(RECORD);
        let (record, found) = match read_record(&record_file) {
            Ok(Some(r)) => (Some(r), Ok(Some(record_file))),
            Ok(None) => (None, Ok(None)),
            Err(e) => (None, Err(e)),
        };
        let this = std::env::current_exe().ok();
        let recorded_binary = record.as_ref().map(|r| r.binary.clone());
        let script = match record {
            Some(r) if r.method == METHOD => Script::Command {
                binary: r.binary,
                package: r.package,
            },
            Some(r) if r.method == "binary" => Script::Binary {
                checkout: r.checkout,
                prefix: r.prefix,
                from: r.from,
            },
            Some(r) => Script::Source {
                checkout: r.checkout,
                prefix: r.prefix,
            },
            None => Script::Unrecorded,
        };
        let runner = [recorded_binary.as_deref(), on_path, this.as_deref()]
            .into_iter()
            .flatten()
            .find(|b| is_executable(b))
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from(BINARY_NAME));
        let settings_arg = if settings == installation::default_settings(&places.config_dir) {
            String::new()
        } else {
            format!(" --settings {}", quote_path(settings))
        };
        let sandbox_on = match by_plugin {
            Some(p) => plugin::sandbox_only_command(&places.config_dir, p, settings),
            None => format!(
                "{} install-hooks --sandbox-only{settings_arg}",
                quote_path(&runner)
            ),
        };
        Fixes {
            script,
            record: found,
            plugin: by_plugin.map(|p| p.id.clone()),
            runner,
            settings_arg,
            home: places.home.clone(),
            sandbox_on,
        }
    }

    /// What turns Claude Code's sandbox on (its settings alone, which fit every install).
    pub fn sandbox_on(&self) -> &str {
        &self.sandbox_on
    }

    /// One line on how the product was installed, as far as doctor can tell.
    pub fn describe(&self) -> String {
        let via_script = match (&self.script, &self.record) {
            (Script::Source { checkout, .. }, Ok(Some(r))) => format!(
                "install.sh in {}, building the binary there ({}; recorded in {})",
                checkout.display(),
                gone_or_there(checkout),
                r.display()
            ),
            (Script::Binary { checkout, from, .. }, Ok(Some(r))) => format!(
                "install.sh in {}, with --binary {} ({}; recorded in {})",
                checkout.display(),
                from.display(),
                gone_or_there(checkout),
                r.display()
            ),
            (Script::Command { binary, package }, Ok(Some(r))) => match package {
                Some(p) => format!(
                    "programmer-hook install, from the npm package in {} (recorded in {})",
                    p.display(),
                    r.display()
                ),
                None => format!(
                    "programmer-hook install, with the binary {} (recorded in {})",
                    binary.display(),
                    r.display()
                ),
            },
            (_, Err(e)) => format!(
                "install.sh's record cannot be read ({e}); fixes name this binary's build checkout while it exists"
            ),
            _ => "no record of install.sh (an older install.sh, or hook entries written by install-hooks); fixes name this binary's build checkout while it exists".to_string(),
        };
        match &self.plugin {
            Some(id) if matches!(self.record, Ok(None)) => {
                format!("the plugin {id} (no record of install.sh)")
            }
            Some(id) => format!("the plugin {id}; also {via_script}"),
            None => via_script,
        }
    }

    /// The plugin's own fix: update it, or install it again.
    pub fn plugin(id: &str) -> String {
        format!("claude plugin update {id} (or: claude plugin uninstall {id} && claude plugin install {id})")
    }

    /// What reinstalls the product as it is in use: the plugin when one is enabled, else
    /// as `install.sh` installed it.
    pub fn product(&self) -> String {
        match &self.plugin {
            Some(id) => Fixes::plugin(id),
            None => self.reinstall(),
        }
    }

    /// What installs again the files `install.sh` owns (the binary, the pack, the hook
    /// entries, the default preferences), the way they were installed.
    pub fn reinstall(&self) -> String {
        match &self.script {
            Script::Source { checkout, prefix } => {
                let args = self.prefix_arg(prefix);
                match has_installer(checkout) {
                    true => format!("cd {} && ./install.sh{args}", quote_path(checkout)),
                    false => format!(
                        "the checkout it was installed from ({}) is gone: in a checkout of programmer-hook {VERSION}, run ./install.sh{args}",
                        checkout.display()
                    ),
                }
            }
            Script::Binary {
                checkout,
                prefix,
                from,
            } => {
                let binary = if is_executable(from) {
                    from.as_path()
                } else {
                    self.runner.as_path()
                };
                let args = format!(
                    " --binary {}{}",
                    quote_path(binary),
                    self.prefix_arg(prefix)
                );
                match has_installer(checkout) {
                    true => format!("cd {} && ./install.sh{args}", quote_path(checkout)),
                    false => format!(
                        "the checkout it was installed from ({}) is gone: in a checkout of programmer-hook {VERSION}, run ./install.sh{args}",
                        checkout.display()
                    ),
                }
            }
            Script::Command { binary, package } => {
                if is_executable(binary) {
                    format!("{} install", quote_path(binary))
                } else if package.is_some() {
                    format!("npm install -g {} && programmer-hook install", npm::PACKAGE)
                } else {
                    format!("{} install", quote_path(&self.runner))
                }
            }
            Script::Unrecorded => {
                let build = Path::new(env!("CARGO_MANIFEST_DIR"));
                if has_installer(build) {
                    format!("cd {} && ./install.sh", quote_path(build))
                } else {
                    format!(
                        "in a checkout of programmer-hook {VERSION}, run ./install.sh --binary {}",
                        quote_path(&self.runner)
                    )
                }
            }
        }
    }

    /// What writes the hook entries into the settings checked.
    pub fn hook_entries(&self) -> String {
        let b = quote_path(&self.runner);
        format!("{b} install-hooks --binary {b}{}", self.settings_arg)
    }

    /// What removes `install.sh`'s hook entries (for two installs at once).
    pub fn remove_hook_entries(&self) -> String {
        let remove = format!(
            "{} uninstall-hooks{}",
            quote_path(&self.runner),
            self.settings_arg
        );
        match self.uninstall() {
            Some(u) => format!("{remove} (or, to remove its binary and pack too: {u})"),
            None => remove,
        }
    }

    /// What removes the pack files `install.sh` left in the config dir while the plugin,
    /// which carries its own, is in use: its `--uninstall` where its checkout is there,
    /// else the files themselves.
    pub fn remove_pack(&self, present: &[PathBuf]) -> String {
        match self.uninstall() {
            Some(u) => u,
            None => format!(
                "rm -f {}",
                present
                    .iter()
                    .map(|p| quote_path(p))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        }
    }

    /// `install.sh --uninstall` in the checkout it ran from, while that is there
    /// (`programmer-hook uninstall` for an install it made).
    fn uninstall(&self) -> Option<String> {
        if let Script::Command { binary, .. } = &self.script {
            let b = if is_executable(binary) {
                binary
            } else {
                &self.runner
            };
            return Some(format!("{} uninstall", quote_path(b)));
        }
        let (checkout, prefix) = match &self.script {
            Script::Source { checkout, prefix }
            | Script::Binary {
                checkout, prefix, ..
            } => (checkout.as_path(), Some(prefix.as_path())),
            Script::Unrecorded | Script::Command { .. } => {
                (Path::new(env!("CARGO_MANIFEST_DIR")), None)
            }
        };
        let args = prefix.map(|p| self.prefix_arg(p)).unwrap_or_default();
        has_installer(checkout).then(|| {
            format!(
                "cd {} && ./install.sh --uninstall{args}",
                quote_path(checkout)
            )
        })
    }

    /// ` --prefix DIR` when it is not install.sh's default.
    fn prefix_arg(&self, prefix: &Path) -> String {
        if prefix == self.home.join(".local") {
            String::new()
        } else {
            format!(" --prefix {}", quote_path(prefix))
        }
    }
}

/// The record `install.sh` wrote; `None` when there is none.
fn read_record(file: &Path) -> Result<Option<Record>, String> {
    match fs::read(file) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| format!("{}: {e}", file.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", file.display())),
    }
}

fn has_installer(checkout: &Path) -> bool {
    checkout.join("install.sh").is_file()
}

fn gone_or_there(checkout: &Path) -> &'static str {
    if has_installer(checkout) {
        "the checkout is there"
    } else {
        "the checkout is gone"
    }
}

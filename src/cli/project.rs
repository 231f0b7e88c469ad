//! `add-project`: registering a project (or updating it).

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;

use crate::workflow::{projects, state};

#[derive(Args)]
pub struct AddProjectArgs {
    /// The project's name (default: the package name of its manifest, else the folder's name).
    #[arg(long)]
    name: Option<String>,
    /// The project's folder (default: the current folder).
    #[arg(long)]
    path: Option<PathBuf>,
    /// What the project is.
    #[arg(long)]
    description: Option<String>,
    /// Languages and frameworks, comma-separated (default: detected from the files).
    #[arg(long, value_delimiter = ',')]
    stack: Option<Vec<String>>,
    /// Where the conventions are written, or a summary (default: CONTRIBUTING.md if present).
    #[arg(long)]
    conventions: Option<String>,
    /// The test command the review gate waits for (default: detected; "" for none).
    #[arg(long)]
    test: Option<String>,
    /// Replace a project of the same name registered for another folder.
    #[arg(long)]
    force: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn run_add_project(a: AddProjectArgs) -> Result<i32> {
    let places = state::places()?;
    let path = match a.path {
        Some(p) => p,
        None => std::env::current_dir().context("cannot read the current folder")?,
    };
    let reg = projects::Registration {
        name: a.name,
        path,
        description: a.description,
        stack: a.stack.map(|v| {
            v.into_iter()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        }),
        conventions: a.conventions,
        test: a.test,
        force: a.force,
    };
    let (name, p, updated) = projects::register(&places.state_dir, &reg)?;
    let file = projects::project_path(&places.state_dir, &name);
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(
                &json!({"name": name, "file": file, "updated": updated, "project": p})
            )?
        );
    } else {
        println!(
            "{} project {name} in {}",
            if updated { "updated" } else { "registered" },
            file.display()
        );
        println!("  path         {}", p.path);
        println!("  description  {}", p.description);
        println!("  stack        {}", p.stack.join(", "));
        println!("  conventions  {}", p.conventions);
        println!(
            "  test         {}",
            p.test
                .as_deref()
                .unwrap_or("(none: the review gate does not wait for tests)")
        );
    }
    Ok(0)
}

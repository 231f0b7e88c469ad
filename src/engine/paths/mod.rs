//! Paths as the hook reads them: a path as written resolved the way the shell and the OS
//! would see it, and the path patterns of the policy's lists matched against it.
//!
//! Each job stands in its own file, the lower ones first: `glob` matches a pattern against
//! a path (and a shell word against a glob), `overlap` says whether a glob can name what a
//! pattern matches, `places` fills in the places a pattern names (`~`, `{state}` …), `fs`
//! asks the file system, `resolve` resolves a path (`~` and `$HOME` expanded, made absolute,
//! `.` and `..` folded, links followed), and `classes` puts a resolved path in the classes
//! its shape alone decides (broad, a home folder, git's history). The classes the policy's
//! lists decide (`protected`, `sensitive` …) are the classifier's. File-system access goes
//! through [`Fs`], so the classifier stays pure and tests can use a fake. The rest of the
//! crate names these as `paths::…`, re-exported here.

mod classes;
mod fs;
mod glob;
mod overlap;
mod places;
mod resolve;

pub use classes::{in_git_folder, is_broad, is_home_folder};
pub use fs::{Fs, NoFs, RealFs};
pub use glob::{component_match, glob_match, is_above_pattern, last_name};
pub use overlap::{glob_overlaps, glob_overlaps_any, last_names_overlap};
pub use places::{expand_pattern, expand_pattern_all, Places};
pub use resolve::{normalize, resolve, Resolved};

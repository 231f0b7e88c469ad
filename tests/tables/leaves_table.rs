//! A Safe rule that names a subcommand names the leaf that only reads, not a group whose
//! other leaves change things: rules match a subcommand by its leading words, so a Safe
//! `env` would make `conda env remove` Safe. One line per subcommand a program uses to
//! change things, `(program, subcommand)`; each is checked against every Safe rule of the
//! default policy (a rule naming a word it starts with must bound what follows) and run as
//! a command in the imaginary machine of `examples`, where it must not be Safe.

use programmer_hook::engine::examples::run_example;
use programmer_hook::engine::policy::{Policy, Tier};

#[rustfmt::skip]
const CHANGING: &[(&str, &str)] = &[
    ("conda", "env create"), ("conda", "env remove"), ("conda", "env update"),
    ("conda", "env config vars set"), ("conda", "create"), ("conda", "remove"),
    ("conda", "install"), ("conda", "update"), ("conda", "clean"), ("conda", "rename"),
    ("mamba", "env create"), ("mamba", "env remove"), ("mamba", "env update"),
    ("mamba", "install"), ("mamba", "remove"),
    ("poetry", "env use"), ("poetry", "env remove"), ("poetry", "env activate"),
    ("poetry", "add"), ("poetry", "remove"), ("poetry", "lock"), ("poetry", "install"),
    ("poetry", "update"), ("poetry", "self update"), ("poetry", "source add"),
    ("poetry", "cache clear"), ("poetry", "version patch"),
    ("pnpm", "env use"), ("pnpm", "env add"), ("pnpm", "env remove"), ("pnpm", "add"),
    ("pnpm", "remove"), ("pnpm", "store prune"), ("pnpm", "config set"),
    ("pnpm", "config delete"),
    ("npm", "config set"), ("npm", "config delete"), ("npm", "cache clean"),
    ("npm", "access set"), ("npm", "access grant"), ("npm", "dist-tag add"),
    ("npm", "dist-tag rm"), ("npm", "owner add"), ("npm", "owner rm"),
    ("npm", "token create"), ("npm", "token revoke"), ("npm", "profile set"),
    ("npm", "pkg set"), ("npm", "pkg delete"), ("npm", "audit fix"), ("npm", "version patch"),
    ("npm", "star"), ("npm", "deprecate"), ("npm", "publish"), ("npm", "unpublish"),
    ("npm", "link"), ("npm", "install"), ("npm", "uninstall"), ("npm", "update"),
    ("yarn", "config set"), ("yarn", "cache clean"), ("yarn", "add"), ("yarn", "remove"),
    ("yarn", "version patch"),
    ("pip", "config set"), ("pip", "config unset"), ("pip", "config edit"),
    ("pip", "cache purge"), ("pip", "cache remove"), ("pip", "install"),
    ("pip", "uninstall"), ("pip3", "install"), ("pip3", "cache purge"),
    ("pipx", "install"), ("pipx", "uninstall"), ("pipx", "inject"), ("pipx", "ensurepath"),
    ("uv", "pip install"), ("uv", "pip uninstall"), ("uv", "pip sync"),
    ("uv", "cache clean"), ("uv", "cache prune"), ("uv", "python install"),
    ("uv", "python uninstall"), ("uv", "python pin"), ("uv", "tool install"),
    ("uv", "self update"), ("uv", "add"), ("uv", "remove"), ("uv", "sync"), ("uv", "lock"),
    ("pdm", "config"), ("pdm", "add"), ("pdm", "remove"), ("pdm", "venv create"),
    ("pdm", "venv remove"), ("pdm", "use"),
    ("gem", "install"), ("gem", "uninstall"), ("gem", "update"), ("gem", "cleanup"),
    ("gem", "pristine"),
    ("brew", "install"), ("brew", "uninstall"), ("brew", "upgrade"),
    ("brew", "services stop"), ("brew", "services start"), ("brew", "tap"),
    ("brew", "untap"), ("brew", "link"), ("brew", "unlink"), ("brew", "pin"),
    ("brew", "cleanup"), ("brew", "autoremove"), ("brew", "analytics off"),
    ("go", "mod tidy"), ("go", "mod edit"), ("go", "mod download"), ("go", "mod vendor"),
    ("go", "mod init"), ("go", "get"), ("go", "install"), ("go", "work use"),
    ("go", "clean"), ("go", "generate"),
    ("cargo", "add"), ("cargo", "remove"), ("cargo", "update"), ("cargo", "install"),
    ("cargo", "yank"), ("cargo", "publish"), ("cargo", "clean"), ("cargo", "fix"),
    ("cargo", "owner"),
    ("rustup", "toolchain install"), ("rustup", "toolchain uninstall"),
    ("rustup", "toolchain link"), ("rustup", "target add"), ("rustup", "target remove"),
    ("rustup", "component add"), ("rustup", "component remove"), ("rustup", "default"),
    ("rustup", "override set"), ("rustup", "override unset"), ("rustup", "update"),
    ("rustup", "self uninstall"), ("rustup", "set profile"),
    ("dotnet", "add package"), ("dotnet", "remove package"), ("dotnet", "new"),
    ("dotnet", "tool install"), ("dotnet", "workload install"),
    ("opam", "install"), ("opam", "remove"), ("opam", "switch create"),
    ("opam", "switch set"),
    ("apt", "install"), ("apt", "remove"), ("apt", "purge"), ("apt", "autoremove"),
    ("apt", "upgrade"),
    ("dnf", "install"), ("dnf", "remove"), ("dnf", "history undo"),
    ("dnf", "history rollback"), ("yum", "install"), ("yum", "history undo"),
    ("snap", "install"), ("snap", "remove"), ("snap", "disable"), ("snap", "stop"),
    ("flatpak", "install"), ("flatpak", "uninstall"), ("flatpak", "remote-add"),
    ("flatpak", "remote-delete"),
    ("bun", "pm cache rm"), ("bun", "pm trust"), ("bun", "add"), ("bun", "remove"),
    ("git", "remote add"), ("git", "remote remove"), ("git", "remote rm"),
    ("git", "remote rename"), ("git", "remote set-url"), ("git", "remote prune"),
    ("git", "stash drop"), ("git", "stash pop"), ("git", "stash clear"),
    ("git", "stash push"), ("git", "worktree add"), ("git", "worktree remove"),
    ("git", "submodule update"), ("git", "submodule add"), ("git", "submodule deinit"),
    ("git", "reflog expire"), ("git", "reflog delete"), ("git", "notes add"),
    ("git", "notes remove"), ("git", "bisect start"), ("git", "bisect reset"),
    ("git", "sparse-checkout set"), ("git", "rerere forget"), ("git", "rerere clear"),
    ("git", "lfs install"), ("git", "lfs track"), ("git", "lfs prune"),
    ("git", "lfs migrate"), ("git", "config set"), ("git", "config unset"),
    ("git", "replace -d"),
    ("docker", "container rm"), ("docker", "container prune"), ("docker", "container stop"),
    ("docker", "image rm"), ("docker", "image prune"), ("docker", "network rm"),
    ("docker", "network create"), ("docker", "volume rm"), ("docker", "volume prune"),
    ("docker", "context rm"), ("docker", "context use"), ("docker", "compose down"),
    ("docker", "compose up"), ("docker", "compose rm"), ("docker", "system prune"),
    ("docker", "buildx rm"), ("docker", "buildx create"), ("docker", "plugin install"),
    ("docker", "plugin rm"), ("docker", "secret rm"), ("docker", "config rm"),
    ("docker", "service rm"), ("docker", "stack rm"), ("docker", "node rm"),
    ("docker", "trust sign"), ("podman", "image rm"), ("podman", "volume prune"),
    ("docker-compose", "down"), ("docker-compose", "up"), ("docker-compose", "rm"),
    ("kubectl", "config set-context"), ("kubectl", "config use-context"),
    ("kubectl", "config delete-context"), ("kubectl", "config set"),
    ("kubectl", "rollout restart"), ("kubectl", "rollout undo"),
    ("kubectl", "auth reconcile"), ("kubectl", "delete"), ("kubectl", "apply"),
    ("kubectl", "scale"), ("kubectl", "edit"), ("kubectl", "patch"), ("kubectl", "label"),
    ("oc", "env"), ("oc", "set env"),
    ("helm", "repo add"), ("helm", "repo remove"), ("helm", "repo update"),
    ("helm", "plugin install"), ("helm", "plugin uninstall"), ("helm", "dep update"),
    ("helm", "dependency build"), ("helm", "install"), ("helm", "uninstall"),
    ("helm", "upgrade"), ("helm", "rollback"),
    ("minikube", "start"), ("minikube", "stop"), ("minikube", "delete"),
    ("minikube", "addons enable"), ("minikube", "image rm"), ("kind", "create cluster"),
    ("kind", "delete cluster"),
    ("gh", "release create"), ("gh", "release delete"), ("gh", "release upload"),
    ("gh", "issue create"), ("gh", "issue close"), ("gh", "issue edit"),
    ("gh", "pr create"), ("gh", "pr merge"), ("gh", "pr close"), ("gh", "pr checkout"),
    ("gh", "secret set"), ("gh", "secret delete"), ("gh", "variable set"),
    ("gh", "variable delete"), ("gh", "ssh-key add"), ("gh", "gpg-key add"),
    ("gh", "project create"), ("gh", "run cancel"), ("gh", "run rerun"),
    ("gh", "run delete"), ("gh", "workflow run"), ("gh", "workflow enable"),
    ("gh", "workflow disable"), ("gh", "repo create"), ("gh", "repo delete"),
    ("gh", "repo edit"), ("gh", "label create"), ("gh", "label delete"),
    ("gh", "cache delete"), ("gh", "gist create"), ("gh", "gist delete"),
    ("gh", "extension install"), ("gh", "alias set"), ("gh", "alias delete"),
    ("gh", "config set"), ("gh", "auth login"), ("gh", "auth logout"),
    ("ip", "addr add"), ("ip", "addr del"), ("ip", "address flush"), ("ip", "link set"),
    ("ip", "link add"), ("ip", "link delete"), ("ip", "route add"), ("ip", "route del"),
    ("ip", "route flush"), ("ip", "rule add"), ("ip", "neigh add"), ("ip", "neigh flush"),
    ("ip", "netns add"), ("ip", "netns delete"), ("ip", "netns exec"),
    ("ip", "tunnel add"), ("ip", "tuntap add"),
    ("terraform", "providers lock"), ("terraform", "providers mirror"),
    ("terraform", "workspace new"), ("terraform", "workspace select"),
    ("terraform", "workspace delete"), ("terraform", "apply"), ("terraform", "destroy"),
    ("tofu", "providers lock"), ("tofu", "workspace new"),
    ("cdk", "deploy"), ("cdk", "destroy"), ("cdk", "bootstrap"),
    ("systemctl", "stop"), ("systemctl", "start"), ("systemctl", "restart"),
    ("systemctl", "disable"), ("systemctl", "enable"), ("systemctl", "mask"),
    ("systemctl", "kill"), ("systemctl", "isolate"), ("systemctl", "daemon-reload"),
    ("systemctl", "set-default"), ("systemctl", "edit"), ("systemctl", "set-property"),
    ("launchctl", "load"), ("launchctl", "unload"), ("launchctl", "bootout"),
    ("launchctl", "bootstrap"), ("launchctl", "disable"), ("launchctl", "enable"),
    ("launchctl", "kill"), ("launchctl", "remove"), ("launchctl", "setenv"),
    ("launchctl", "stop"),
    ("hostnamectl", "set-hostname"), ("timedatectl", "set-time"),
    ("timedatectl", "set-timezone"), ("timedatectl", "set-ntp"),
    ("loginctl", "terminate-user"), ("loginctl", "enable-linger"),
    ("localectl", "set-locale"),
    ("resolvectl", "flush-caches"), ("resolvectl", "dns"), ("resolvectl", "revert"),
    ("resolvectl", "reset-statistics"),
    ("ansible-galaxy", "collection install"), ("ansible-galaxy", "role install"),
    ("ansible-galaxy", "role remove"), ("ansible-galaxy", "install"),
    ("security", "delete-keychain"), ("security", "add-generic-password"),
    ("security", "delete-generic-password"), ("security", "set-keychain-settings"),
    ("defaults", "write"), ("defaults", "delete"), ("defaults", "import"),
    ("diskutil", "eraseDisk"), ("diskutil", "unmount"), ("diskutil", "partitionDisk"),
    ("diskutil", "apfs deleteVolume"), ("hdiutil", "attach"), ("hdiutil", "detach"),
    ("hdiutil", "create"), ("tmutil", "delete"), ("tmutil", "disable"),
    ("tmutil", "startbackup"), ("tmutil", "addexclusion"), ("tmutil", "setdestination"),
    ("profiles", "remove"), ("profiles", "install"),
    ("7z", "a"), ("7z", "d"), ("7z", "u"), ("7z", "x"), ("7z", "rn"),
    ("aws", "configure set"), ("aws", "s3 rm"), ("aws", "dynamodb put-item"),
    ("aws", "dynamodb delete-item"), ("aws", "ssm send-command"),
    ("aws", "ssm put-parameter"), ("aws", "secretsmanager put-secret-value"),
    ("gcloud", "config set"), ("gcloud", "config unset"), ("gcloud", "auth login"),
    ("gcloud", "auth revoke"), ("gcloud", "config configurations activate"),
    ("gcloud", "compute instances delete"), ("gcloud", "secrets versions add"),
    ("az", "config set"), ("az", "group delete"), ("az", "storage blob delete"),
    ("az", "storage blob upload"), ("az", "keyvault secret set"), ("az", "vm stop"),
    ("az", "webapp restart"),
    ("auth0", "apps create"), ("auth0", "apps delete"), ("auth0", "users delete"),
    ("auth0", "roles permissions add"), ("auth0", "actions deploy"),
    ("ruff", "format"), ("ruff", "clean"),
    ("pre-commit", "install"), ("pre-commit", "autoupdate"), ("pre-commit", "clean"),
    ("programmer-hook", "approve"), ("programmer-hook", "autonomy"),
    ("programmer-hook", "add-project"), ("programmer-hook", "install"),
    ("programmer-hook", "uninstall"), ("programmer-hook", "install-hooks"),
];

/// The words a subcommand entry or a changing subcommand is made of.
fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

/// Whether `entry` is `sub` or its leading words.
fn is_prefix(entry: &str, sub: &str) -> bool {
    let (e, s) = (words(entry), words(sub));
    e.len() <= s.len() && e == s[..e.len()]
}

/// No Safe rule names a word that a changing subcommand starts with unless it bounds what
/// may follow: no more positional words than the entry has, a line pattern anchored at
/// the end, an option it requires (`--list`), or a pattern it must not match that the
/// changing subcommand matches.
#[test]
fn safe_rules_name_read_only_leaves() {
    let policy = Policy::builtin().expect("default policy");
    let mut wrong = Vec::new();
    for rule in policy.rules().iter().filter(|r| r.tier == Tier::Safe) {
        for entry in rule.subcommand.iter() {
            for &(program, sub) in CHANGING {
                if !rule.command.iter().any(|c| c == program) || !is_prefix(entry, sub) {
                    continue;
                }
                let bounded = rule.max_positional.is_some_and(|n| n <= words(entry).len())
                    || rule.line_regex.as_deref().is_some_and(|r| r.ends_with('$'))
                    || !rule.flags_any.is_empty()
                    || rule.line_not_regex.as_deref().is_some_and(|r| {
                        let re = regex_lite::Regex::new(r).expect("the rule's pattern");
                        re.is_match(&format!("{program} {sub}"))
                    });
                if !bounded {
                    wrong.push(format!(
                        "{}: `{entry}` is a prefix of `{program} {sub}`, which changes things",
                        rule.id
                    ));
                }
            }
        }
    }
    crate::support::table::report(wrong);
}

/// Each changing subcommand, alone and with words after it, is not Safe.
#[test]
fn changing_subcommands_are_not_safe() {
    let policy = Policy::builtin().expect("default policy");
    let mut wrong = Vec::new();
    for &(program, sub) in CHANGING {
        for tail in ["", " x", " -n x y", " --all"] {
            let cmd = format!("{program} {sub}{tail}");
            let d = run_example(&policy, &cmd).expect("classifies");
            if d.verdict.tier == Tier::Safe {
                wrong.push(format!("{cmd:?}: Safe by {}", d.verdict.rule));
            }
        }
    }
    crate::support::table::report(wrong);
}

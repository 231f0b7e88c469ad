//! Tests of the policy loader, the built-in policy and the schema.

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

use serde::Deserialize;

use super::rules::default_tier;
use super::*;

/// The keys a value serialises to, every field set.
fn keys(v: serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().expect("object").keys().cloned().collect();
    k.sort();
    k
}

/// The keys of an object whose value `is` says yes to.
fn keys_holding(v: serde_json::Value, is: impl Fn(&serde_json::Value) -> bool) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_object()
        .expect("object")
        .iter()
        .filter(|(_, v)| is(v))
        .map(|(k, _)| k.clone())
        .collect();
    k.sort();
    k
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut k: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    k.sort();
    k
}

/// The serde types read exactly the keys of `schema`, so `build.rs` (which checks the
/// default files against `schema`) and the loader accept the same files.
#[test]
fn serde_types_have_the_schema_keys() {
    let l: List = ["x"].into_iter().collect();
    let t = || Some(PolicyText::Borrowed("x"));
    let rule = Rule {
        id: "x".into(),
        reason: "x".into(),
        instead: t(),
        fallback: true,
        relaxable: true,
        contained: true,
        effect: t(),
        disabled: true,
        tool: l.clone(),
        command: l.clone(),
        subcommand: l.clone(),
        flags_any: l.clone(),
        flags_none: l.clone(),
        args_any: l.clone(),
        args_none: l.clone(),
        line_regex: t(),
        line_not_regex: t(),
        args_is: l.clone(),
        args_only: l.clone(),
        max_positional: Some(1),
        path_class: Cow::Owned(vec![PathClass::Broad]),
        mount_source: Cow::Owned(vec![MountClass::Home]),
        access: Some(AccessKind::Read),
        signal: t(),
        examples_match: vec!["x".into()],
        not_match: vec!["x".into()],
        ..Rule::default()
    };
    let json = |v: &dyn erased::Ser| v.value();
    assert_eq!(keys(json(&rule)), sorted(schema::RULE_KEYS));
    // Of a rule's keys, those that hold true or false are `RULE_FLAGS`, and those that
    // hold one text are `RULE_TEXTS` beside its id and reason.
    assert_eq!(
        keys_holding(json(&rule), serde_json::Value::is_boolean),
        sorted(schema::RULE_FLAGS)
    );
    assert_eq!(
        keys_holding(json(&rule), |v| v == "x"),
        sorted(&[schema::RULE_TEXTS, &["id", "reason"]].concat())
    );
    let effects = Effects {
        reads: Some(Select::All),
        writes: Some(Select::Last),
        names: Some(Select::All),
        into_folder: true,
        complete: true,
        recursive: true,
        skips_hidden: true,
        remote_name: true,
        runs_input: true,
        command_input: true,
        command_args: Some(Select::AfterFirst),
        operands: 1,
        flags: l.clone(),
        read_keys: l.clone(),
        first_is: Some(FirstValue::Mode),
        write_keys: l.clone(),
        value_flags: l.clone(),
        read_flags: l.clone(),
        list_flags: l.clone(),
        write_flags: l.clone(),
        pattern_flags: l.clone(),
        in_place_flags: l.clone(),
        read_only_flags: l.clone(),
        recursive_flags: l.clone(),
        hidden_flags: l.clone(),
        remote_name_flags: l.clone(),
        names_flags: l.clone(),
        git_actions: l.clone(),
        git_actions_unless: l.clone(),
        send_flags: l.clone(),
        run_flags: l.clone(),
        folder_flags: l.clone(),
        unknown_value_flags: l.clone(),
        command_flags: l.clone(),
        shell_escapes: l.clone(),
        shell_flags: l.clone(),
        program_flags: l.clone(),
        replace_flags: l.clone(),
        null_flags: l.clone(),
        line_flags: l.clone(),
        leading_flags: l.clone(),
        exec_flags: l.clone(),
        exec_dir_flags: l.clone(),
        root_flags: l.clone(),
        found_name_flags: l.clone(),
        extension_flags: l.clone(),
        glob_flags: l.clone(),
        bare_flags: l.clone(),
        lister_flags: l.clone(),
        listing_flags: l.clone(),
        not_listing_flags: l.clone(),
        offline_flags: l.clone(),
        string_flags: l.clone(),
        stdin_flags: l.clone(),
        workspace_flags: l.clone(),
        no_scripts_flags: l.clone(),
        skip_hooks_flags: l.clone(),
        volume_flags: l.clone(),
        mount_flags: l.clone(),
        code_flags: l.clone(),
        script_flags: l.clone(),
        module_flags: l.clone(),
        library_flags: l.clone(),
        inert_libraries: l.clone(),
        load_flags: l.clone(),
        loop_flags: l.clone(),
        no_code_flags: l.clone(),
        version_flags: l.clone(),
        inert_flags: l.clone(),
        attached_flags: l.clone(),
        number_flags: l.clone(),
        global_flags: l.clone(),
        global_value_flags: l.clone(),
        global_read_flags: l.clone(),
        setting_flags: l.clone(),
        setting_env_flags: l.clone(),
        edit_flags: l.clone(),
        file_flags: l.clone(),
        symbolic_flags: l.clone(),
        reference_flags: l.clone(),
        long_options: l.clone(),
        long_value_options: l.clone(),
        short_value_options: l.clone(),
    };
    assert_eq!(keys(json(&effects)), sorted(schema::EFFECT_KEYS));
    // The keys that hold a list of words are `EFFECT_LISTS`, every one of them: `build.rs`
    // writes only those as lists.
    assert_eq!(
        keys_holding(json(&effects), |v| v == &serde_json::json!(["x"])),
        sorted(schema::EFFECT_LISTS)
    );
    assert_eq!(
        keys(json(&PathLists::default())),
        sorted(schema::PATH_LISTS)
    );
    assert_eq!(keys(json(&Kinds::default())), sorted(schema::KIND_LISTS));
    assert_eq!(
        keys(json(&WorkflowSettings::default())),
        sorted(schema::WORKFLOW_KEYS)
    );
    let file = PolicyFile {
        workflow: Some(WorkflowSettings::default()),
        ..PolicyFile::default()
    };
    assert_eq!(keys(json(&file)), sorted(schema::FILE_KEYS));
}

/// The defaults the serde types fill in are the ones `schema` names.
#[test]
fn serde_defaults_are_the_schema_defaults() {
    assert_eq!(
        WorkflowSettings::default().max_review_rounds,
        schema::DEFAULT_REVIEW_ROUNDS
    );
    assert_eq!(
        WorkflowSettings::default().log_retention_days,
        schema::DEFAULT_LOG_RETENTION_DAYS
    );
    assert_eq!(Rule::default().tier, default_tier());
    assert_eq!(
        default_tier().to_string().to_lowercase(),
        schema::DEFAULT_TIER
    );
}

/// Every closed value of `schema` reads as the variant `build.rs` names for it, and
/// a word outside them is refused at load.
#[test]
fn closed_values_are_the_schema_values() {
    fn check<T: serde::de::DeserializeOwned + fmt::Debug>(names: &[&str]) {
        for n in names {
            let v: T = serde_json::from_value(serde_json::json!(n)).expect(n);
            assert_eq!(format!("{v:?}"), schema::variant_name(n), "{n}");
        }
        assert!(serde_json::from_value::<T>(serde_json::json!("nonsense")).is_err());
    }
    check::<Tier>(schema::TIERS);
    check::<AccessKind>(schema::ACCESS_KINDS);
    check::<PathClass>(schema::PATH_CLASSES);
    check::<MountClass>(schema::MOUNT_CLASSES);
    check::<Select>(schema::SELECTIONS);
    check::<FirstValue>(schema::FIRST_VALUES);
    let err = parse_file(
        "[commands]\ncp = { reads = \"every\" }\n",
        Path::new("user.toml"),
    )
    .expect_err("unknown selection");
    assert!(format!("{err:#}").contains("every"), "{err:#}");
}

mod erased {
    /// Serialises any of the schema's types to JSON (one function for all of them).
    pub trait Ser {
        fn value(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Ser for T {
        fn value(&self) -> serde_json::Value {
            serde_json::to_value(self).expect("serialises")
        }
    }
}

fn file(toml_text: &str) -> PolicyFile {
    toml::from_str(toml_text).expect("valid test TOML")
}

#[test]
fn lists() {
    let cases: &[(&str, &[&str])] = &[
        ("[]", &[]),
        ("['a']", &["a"]),
        ("['a', 'b c']", &["a", "b c"]),
        ("['']", &[""]),
        ("['', 'x']", &["", "x"]),
        ("'git'", &["git"]),
    ];
    for (toml_value, want) in cases {
        #[derive(Deserialize)]
        struct T {
            l: List,
        }
        let t: T = toml::from_str(&format!("l = {toml_value}")).expect("parses");
        assert_eq!(t.l.iter().collect::<Vec<_>>(), *want, "{toml_value}");
        let json = serde_json::to_string(&t.l).expect("json");
        let back: List = serde_json::from_str(&json).expect("back");
        assert_eq!(back, t.l);
    }
}

#[test]
fn list_words_may_not_hold_the_separator() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct T {
        l: List,
    }
    for text in [r#"l = "\u001fgit\u001fls""#, r#"l = ["a\u001fb"]"#] {
        let err = toml::from_str::<T>(text).expect_err(text);
        assert!(err.to_string().contains("U+001F"), "{text}: {err}");
    }
}

#[test]
fn list_words_from_the_stored_form() {
    let cases: &[(&str, &[&str])] = &[
        ("", &[]),
        ("\u{1f}", &[""]),
        ("\u{1f}git\u{1f}ls", &["git", "ls"]),
        ("\u{1f}\u{1f}a", &["", "a"]),
        ("\u{1f}a\u{1f}", &["a", ""]),
        ("\u{1f}été\u{1f}*.pem", &["été", "*.pem"]),
        ("x\u{1f}a", &["a"]),
    ];
    for (stored, want) in cases {
        let l = List::from_static(stored);
        let got: Vec<&str> = l.iter().collect();
        assert_eq!(got, *want, "{stored:?}");
        // The same words as splitting the text at each separator.
        let split: Vec<&str> = stored.split(SEP).skip(1).collect();
        assert_eq!(got, split, "{stored:?}");
    }
}

/// A lookup finds exactly the words the list holds: not a part of one, not one across a
/// separator, the first and the last word, the empty word, a word longer than the lookup's
/// buffer.
#[test]
fn list_lookup_finds_whole_words() {
    let long = "-".repeat(70);
    let stored = format!("\u{1f}--status\u{1f}-f\u{1f}\u{1f}--format\u{1f}{long}\u{1f}été\u{1f}-o");
    let l = List::from_static(Box::leak(stored.into_boxed_str()));
    let cases: &[(&str, bool)] = &[
        ("--status", true),
        ("status", false),
        ("-f", true),
        ("--f", false),
        ("--form", false),
        ("--format", true),
        ("", true),
        ("-o", true),
        ("o", false),
        ("-", false),
        (&long, true),
        (&long[1..], false),
        ("été", true),
        ("-f\u{1f}", false),
        ("-f\u{1f}\u{1f}--format", false),
    ];
    for (word, want) in cases {
        assert_eq!(l.contains(word), *want, "{word:?}");
        assert_eq!(l.iter().any(|w| w == *word), *want, "{word:?}");
    }
    let no_empty = List::from_static("\u{1f}a\u{1f}b");
    assert!(!no_empty.contains(""));
    assert!(List::from_static("x\u{1f}a").contains("a"));
    assert!(!List::from_static("x\u{1f}a").contains("x"));
}
/// The name patterns `build.rs` found are those of the built-in lists; lists a layer
/// changed are read again.
#[test]
fn name_patterns_of_the_lists() {
    let of_lists = |p: &Policy| -> Vec<String> {
        let l = &p.paths;
        l.sensitive
            .iter()
            .chain(l.protected.iter())
            .filter(|w| !w.is_empty() && !w.contains('/') && !w.starts_with('{'))
            .map(str::to_string)
            .collect()
    };
    let mut p = Policy::builtin().expect("built-in policy");
    let names = p.name_patterns();
    assert!(matches!(names, Cow::Borrowed(_)));
    assert_eq!(names.to_vec(), of_lists(&p));
    for n in [".env", "*.pem"] {
        assert!(names.contains(&n), "{n}");
    }
    assert!(!names.iter().any(|n| n.contains('/')));
    p.paths.sensitive.push("*.vault");
    p.paths.protected.push("{home}/x");
    p.paths.protected.push("deploy.key");
    let names = p.name_patterns();
    assert!(matches!(names, Cow::Owned(_)));
    assert_eq!(names.to_vec(), of_lists(&p));
    for n in ["*.vault", "deploy.key"] {
        assert!(names.contains(&n), "{n}");
    }
}

/// The statics `build.rs` generates must equal what serde reads from the same TOML.
#[test]
fn generated_defaults_equal_the_toml() {
    for f in DEFAULT_FILES {
        let mut parsed = parse_file(f.source, Path::new(f.name)).expect("valid TOML");
        for r in &mut parsed.rules {
            r.examples_match.clear();
            r.not_match.clear();
        }
        let generated = PolicyFile {
            paths: f.paths.clone(),
            kinds: f.kinds.clone(),
            commands: f
                .commands
                .iter()
                .map(|(k, e)| (Cow::Borrowed(*k), e.clone()))
                .collect(),
            workflow: f.workflow.clone(),
            rules: f.rules.to_vec(),
        };
        let a = serde_json::to_value(&parsed).expect("json");
        let b = serde_json::to_value(&generated).expect("json");
        assert_eq!(a, b, "{}", f.name);
    }
}

/// The built-in path and kind lists `build.rs` joined are the files' lists joined in order.
#[test]
fn builtin_lists_are_the_files_lists_joined() {
    let p = Policy::builtin().expect("defaults load");
    let (paths, kinds) = Policy::builtin_lists_joined();
    let json = |v: serde_json::Result<serde_json::Value>| v.expect("json");
    assert_eq!(
        json(serde_json::to_value(&p.paths)),
        json(serde_json::to_value(&paths))
    );
    assert_eq!(
        json(serde_json::to_value(&p.kinds)),
        json(serde_json::to_value(&kinds))
    );
    assert_eq!(p.paths.sensitive, paths.sensitive);
    assert_eq!(p.kinds.network, kinds.network);
    assert!(p.paths.sensitive.len() > 20 && p.kinds.network.len() > 5);
}

#[test]
fn builtin_loads() {
    let p = Policy::builtin().expect("defaults load");
    assert!(p.rules().len() > 20);
    assert!(p.rules().iter().all(|r| r.kind().is_some()));
    let mut ids: Vec<&str> = p.rules().iter().map(|r| r.id.as_ref()).collect();
    ids.sort();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "rule ids are unique");
    for r in p.rules() {
        for re in r.line_regex.iter().chain(r.line_not_regex.iter()) {
            assert!(
                regex_lite::Regex::new(re).is_ok(),
                "rule {}: bad regex {re}",
                r.id
            );
        }
    }
}

/// The index gives, for every name, exactly the rules a scan of all rules would, in
/// the same order, before and after a layer changes the rules.
#[test]
fn command_index_agrees_with_a_scan() {
    let scan = |p: &Policy, name: &str| -> Vec<String> {
        p.rules()
            .iter()
            .filter(|r| r.command.iter().any(|c| c == name || c == "*"))
            .map(|r| r.id.to_string())
            .collect()
    };
    let indexed = |p: &Policy, name: &str| -> Vec<String> {
        p.command_rules(name).map(|r| r.id.to_string()).collect()
    };
    let mut p = Policy::builtin().expect("defaults");
    let mut names: Vec<String> = p
        .rules()
        .iter()
        .flat_map(|r| r.command.iter().map(str::to_string))
        .collect();
    names.extend(["no-such-program".to_string(), "new-tool".to_string()]);
    for n in &names {
        assert_eq!(indexed(&p, n), scan(&p, n), "{n}");
    }
    let layer = "[[rule]]\nid='u.any'\ntier='confirm'\ncommand=['new-tool', '*']\n\n[[rule]]\nid='u.new'\ntier='forbidden'\ncommand=['new-tool', 'new-tool']";
    p.merge(file(layer), Layer::User, "u").expect("merge");
    for n in &names {
        assert_eq!(indexed(&p, n), scan(&p, n), "{n} after a layer");
    }
    assert!(indexed(&p, "new-tool").ends_with(&["u.any".into(), "u.new".into()]));
}

/// Every built-in command's effects are found through the index, the last file that
/// names a command winning, as when layers are merged.
#[test]
fn effects_index_agrees_with_the_files() {
    let p = Policy::builtin().expect("defaults");
    let mut names = 0;
    for f in DEFAULT_FILES {
        for (name, _) in f.commands {
            names += 1;
            let last = DEFAULT_FILES
                .iter()
                .rev()
                .flat_map(|f| f.commands.iter())
                .find(|(n, _)| n == name)
                .map(|(_, e)| e);
            assert!(
                std::ptr::eq(p.effects(name).expect("indexed"), last.expect("named")),
                "{name}"
            );
        }
    }
    assert!(names > 50);
    assert!(p.effects("no-such-program").is_none());
}

#[test]
fn project_layer_only_tightens() {
    let refused = [
        "[[rule]]\nid='x'\ntier='safe'\ncommand=['foo']",
        "[[rule]]\nid='x'\ntier='confirm'\nfallback=true\ncommand=['foo']",
        "[paths]\nnot_sensitive=['**/.env']",
        "[workflow]\nmax_review_rounds=100",
        "[workflow]\nlog_retention_days=0",
    ];
    for t in refused {
        let mut p = Policy::builtin().expect("defaults");
        assert!(p.merge(file(t), Layer::Project, "p").is_err(), "{t}");
    }
    let mut p = Policy::builtin().expect("defaults");
    let existing = p.rules()[0].id.clone();
    let t = format!("[[rule]]\nid='{existing}'\ntier='forbidden'\ncommand=['foo']");
    assert!(p.merge(file(&t), Layer::Project, "p").is_err());
    let ok = "[[rule]]\nid='proj.no-docker'\ntier='forbidden'\ncommand=['docker']";
    assert!(p.merge(file(ok), Layer::Project, "p").is_ok());
    assert!(p.command_rules("docker").any(|r| r.id == "proj.no-docker"));
}

#[test]
fn relaxable_only_on_confirm_and_never_in_a_project() {
    for (t, layer, ok) in [
        ("tier='forbidden'\nrelaxable=true", Layer::User, false),
        ("tier='safe'\nrelaxable=true", Layer::User, false),
        ("tier='confirm'\nrelaxable=true", Layer::User, true),
        ("relaxable=true", Layer::User, true),
        ("tier='confirm'\nrelaxable=true", Layer::Project, false),
        ("tier='forbidden'\nrelaxable=true", Layer::Project, false),
        ("tier='confirm'", Layer::Project, true),
    ] {
        let text = format!("[[rule]]\nid='x.rule'\n{t}\ncommand=['foo']");
        let mut p = Policy::builtin().expect("defaults");
        let got = p.merge(file(&text), layer, "f");
        assert_eq!(got.is_ok(), ok, "{t} in {layer:?}: {got:?}");
        if let Err(e) = got {
            let e = e.to_string();
            assert!(e.contains("\"x.rule\"") && e.contains("relaxable"), "{e}");
        }
    }
    // Replacing a default rule by id in the user's file makes it relaxable.
    let mut p = Policy::builtin().expect("defaults");
    let t = "[[rule]]\nid='unknown.command'\nfallback=true\nrelaxable=true\ncommand=['*']";
    p.merge(file(t), Layer::User, "u").expect("merge");
    assert!(p
        .rules()
        .iter()
        .any(|r| r.id == "unknown.command" && r.relaxable));
    let run = |p: &Policy, cmd: &str| {
        crate::engine::examples::run_example(p, cmd)
            .expect("classifies")
            .verdict
    };
    let v = run(&p, "frobnicate --x");
    assert!(v.tier == Tier::Confirm && v.relaxable, "{v:?}");
    // And the reverse: a relaxable default replaced without `relaxable` is opaque.
    assert!(run(&p, "git commit -m x").relaxable);
    let t = "[[rule]]\nid='git.write'\nfallback=true\ncommand=['git']\nsubcommand=['commit']";
    p.merge(file(t), Layer::User, "u").expect("merge");
    let v = run(&p, "git commit -m x");
    assert!(v.tier == Tier::Confirm && !v.relaxable, "{v:?}");
}

#[test]
fn user_layer_replaces_and_disables() {
    let mut p = Policy::builtin().expect("defaults");
    let id = p.rules()[0].id.clone();
    let n = p.rules().len();
    let t = format!("[[rule]]\nid='{id}'\ndisabled=true");
    p.merge(file(&t), Layer::User, "u").expect("merge");
    assert_eq!(p.rules().len(), n - 1);
}

#[test]
fn errors_have_line_numbers() {
    let err = parse_file(
        "[[rule]]\nid = 'x'\ntier = 'sometimes'\n",
        Path::new("f.toml"),
    )
    .expect_err("bad tier");
    assert!(err.to_string().starts_with("f.toml:3:"), "{err}");
}

/// Each rule in force knows the layer and file it came from, and each rule a later layer
/// replaced or disabled is kept with the layer that did it.
#[test]
fn merging_keeps_the_origin_of_every_rule() {
    let mut p = Policy::builtin().expect("defaults");
    let first = p.rules()[0].id.to_string();
    let second = p.rules()[1].id.to_string();
    let n = p.rules().len();
    assert!(p
        .rules_with_origins()
        .all(|(_, o)| o.layer == Layer::Default && o.file.ends_with(".toml")));
    let user = format!(
        "[[rule]]\nid='{first}'\ndisabled=true\n\n[[rule]]\nid='{second}'\ntier='confirm'\ncommand=['frob']\n\n[[rule]]\nid='u.new'\ntier='safe'\ncommand=['newtool']"
    );
    p.merge(file(&user), Layer::User, "/home/u/policy.toml")
        .expect("user");
    let project = "[[rule]]\nid='p.deploy'\ntier='forbidden'\ncommand=['deploy']";
    p.merge(
        file(project),
        Layer::Project,
        "/repo/.claude/programmer-policy.toml",
    )
    .expect("project");
    assert_eq!(p.rules().len(), n + 1);
    let origin = |id: &str| -> Option<(Layer, String)> {
        p.rules_with_origins()
            .find(|(r, _)| r.id == id)
            .map(|(_, o)| (o.layer, o.file.to_string()))
    };
    let table: &[(&str, Option<(Layer, &str)>)] = &[
        (&first, None),
        (&second, Some((Layer::User, "/home/u/policy.toml"))),
        ("u.new", Some((Layer::User, "/home/u/policy.toml"))),
        (
            "p.deploy",
            Some((Layer::Project, "/repo/.claude/programmer-policy.toml")),
        ),
    ];
    for (id, want) in table {
        let want = want.map(|(l, f)| (l, f.to_string()));
        assert_eq!(origin(id), want, "{id}");
    }
    let changed: Vec<(String, Override, Layer, Layer, String)> = p
        .overridden()
        .iter()
        .map(|o| {
            (
                o.rule.id.to_string(),
                o.action,
                o.origin.layer,
                o.by.layer,
                o.by.file.to_string(),
            )
        })
        .collect();
    let by = "/home/u/policy.toml".to_string();
    assert_eq!(
        changed,
        [
            (
                first,
                Override::Disabled,
                Layer::Default,
                Layer::User,
                by.clone()
            ),
            (second, Override::Replaced, Layer::Default, Layer::User, by),
        ]
    );
}

#[test]
fn an_effect_is_known_confirm_only_and_never_relaxed_when_it_cannot_be_undone() {
    for (t, ok, says) in [
        (
            "tier='confirm'\neffect='git-recoverable'\nrelaxable=true",
            true,
            "",
        ),
        ("tier='confirm'\neffect='discard-work'", true, ""),
        (
            "tier='confirm'\neffect='discard-work'\nrelaxable=true",
            false,
            "never relaxed",
        ),
        (
            "tier='confirm'\neffect='runs-later'\nrelaxable=true",
            false,
            "never relaxed",
        ),
        (
            "tier='confirm'\neffect='sometimes'",
            false,
            "unknown effect",
        ),
        ("tier='confirm'\neffect='unseen'\ncontained=true", true, ""),
        (
            "tier='confirm'\neffect='discard-work'\ncontained=true",
            false,
            "sandbox",
        ),
        (
            "tier='forbidden'\neffect='discard-work'",
            false,
            "only Confirm",
        ),
        ("tier='safe'\neffect='project-write'", false, "only Confirm"),
    ] {
        let text = format!("[[rule]]\nid='x.rule'\n{t}\ncommand=['foo']");
        let mut p = Policy::builtin().expect("defaults");
        let got = p.merge(file(&text), Layer::User, "f");
        assert_eq!(got.is_ok(), ok, "{t}: {got:?}");
        if let Err(e) = got {
            let e = e.to_string();
            assert!(e.contains("\"x.rule\"") && e.contains(says), "{e}");
        }
    }
}

/// Every program a Safe rule names has an option table in `[commands]`: the words a table
/// does not describe are judged as files the program may read and write, so a Safe verdict
/// is only as wide as the table.
#[test]
fn every_safe_program_has_an_option_table() {
    let p = Policy::builtin().expect("defaults load");
    let mut missing: Vec<String> = p
        .rules()
        .iter()
        .filter(|r| r.tier == Tier::Safe)
        .flat_map(|r| r.command.iter())
        .filter(|name| *name != "*" && p.effects(name).is_none())
        .map(str::to_string)
        .collect();
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "Safe programs without a table in [commands]: {}",
        missing.join(" ")
    );
}

/// The built-in `languages` kind: each entry a language the analysis reads with the names
/// of its programs, each an interpreter but awk's; a policy file may not change it, and an
/// entry of another shape is a problem.
#[test]
fn languages_are_built_in_and_well_formed() {
    let kinds = Policy::builtin_kinds();
    assert!(!kinds.languages.is_empty());
    let policy = Policy::builtin().expect("default policy loads");
    for entry in kinds.languages.iter() {
        let (lang, names) = entry.split_once(':').expect("LANGUAGE: NAME…");
        assert!(schema::LANGUAGES.contains(&lang.trim()), "{entry}");
        for n in names.split_whitespace() {
            assert!(
                lang.trim() == "awk" || policy.is_interpreter(n),
                "{n} of {entry} is not an interpreter"
            );
        }
    }
    let cases: &[(&str, Layer, usize)] = &[
        ("[kinds]\nlanguages = ['python: evil']\n", Layer::User, 1),
        ("[kinds]\nlanguages = ['python: evil']\n", Layer::Project, 1),
        ("[kinds]\nlanguages = ['cobol: cobc']\n", Layer::Default, 1),
        ("[kinds]\nlanguages = ['python']\n", Layer::Default, 1),
        (
            "[kinds]\nlanguages = ['python: python']\n",
            Layer::Default,
            0,
        ),
        // The editors that take vim's command line and the project runners likewise.
        ("[kinds]\nvim_editors = ['myvim']\n", Layer::User, 1),
        ("[kinds]\nproject_runners = ['rye']\n", Layer::Project, 1),
        ("[kinds]\nvim_editors = ['vim']\n", Layer::Default, 0),
    ];
    assert!(kinds.vim_editors.contains("nvim") && kinds.project_runners.contains("uv"));
    for (text, layer, want) in cases {
        let got = policy.file_problems(&file(text), *layer).len();
        assert_eq!(got, *want, "{text} in {layer:?}");
    }
}

/// The analyses that read a program's own command line (where a shell's script comes from,
/// which folder and Makefile make reads, which manifest a package manager runs, which hooks
/// a commit runs, which options mount a host path) find its grammar in the built-in
/// tables: a table that lost it would leave the analysis reading nothing.
#[test]
fn the_command_line_analyses_find_their_grammar_in_the_built_in_tables() {
    let p = Policy::builtin().expect("default policy loads");
    let table = |name: &str| Policy::builtin_effects(name).unwrap_or_else(|| panic!("{name}"));
    for shell in p.kinds.shells.iter() {
        let own = Policy::builtin_effects(shell).filter(|e| !e.string_flags.is_empty());
        let eff = own.unwrap_or_else(|| table("sh"));
        assert!(eff.string_flags.contains("-c"), "{shell}");
        assert!(eff.stdin_flags.contains("-s"), "{shell}");
    }
    // `sh` may be bash: it reads bash's options that take a value.
    for opt in ["-o", "+o", "-O", "+O", "--rcfile", "--init-file"] {
        assert!(table("sh").takes_value(opt), "sh {opt}");
    }
    for make in ["make", "gmake"] {
        let eff = table(make);
        assert!(eff.folder_flags.contains("-C"), "{make}");
        assert!(eff.script_flags.contains("-f"), "{make}");
        assert!(eff.no_code_flags.contains("-n"), "{make}");
        assert!(
            !eff.no_code_flags.contains("-p"),
            "{make}: -p runs the recipes"
        );
    }
    for tool in ["npm", "pnpm", "yarn"] {
        let eff = table(tool);
        assert!(!eff.folder_flags.is_empty(), "{tool}");
        assert!(eff.no_scripts_flags.contains("--ignore-scripts"), "{tool}");
    }
    for run in ["docker run", "podman run", "nerdctl run"] {
        let eff = table(run);
        assert!(eff.volume_flags.contains("-v") && eff.volume_flags.contains("--volume"));
        assert!(eff.mount_flags.contains("--mount"), "{run}");
    }
    for sub in ["git commit", "git push"] {
        assert!(table(sub).skip_hooks_flags.contains("--no-verify"), "{sub}");
    }
    for su in ["su", "runuser"] {
        assert!(table(su).code_flags.contains("-c"), "{su}");
    }
    assert!(table("watch").program_flags.contains("-x"));
    for opt in ["-n", "-e", "-E"] {
        assert!(table("echo").flags.contains(opt), "echo {opt}");
    }
}

//! The syntax tree of a snippet, walked once: every visible node's named children and
//! parent, and the tree's depth; and the snippet's text, for the text of a node.
//!
//! The readers visit a node's named children at least twice (the pass that collects names,
//! then the one that judges), and some ask for a node's parent. Tree-sitter answers both
//! by moving a cursor (a parent is found by descending again from the root, across every
//! sibling on the way), and a list of children costs a cursor and a vector each time. One
//! cursor pass over the tree here records them all: afterwards the children of a node are
//! a slice and its parent one lookup. The same pass measures the depth, which bounds the
//! readers' recursion.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use tree_sitter::{LanguageRef, Node, Tree};

/// A map keyed by an address (a node's id, a name's).
type ById<V> = HashMap<usize, V, BuildHasherDefault<IdHasher>>;

/// No parent (the root).
const NONE: u32 = u32::MAX;

/// A tree's nodes, each with its parent and its named children.
pub(crate) struct Syntax<'t> {
    root: Node<'t>,
    /// The text the tree was parsed from.
    src: &'t str,
    /// Every visible node, in the order a walk from the root meets them.
    nodes: Vec<Node<'t>>,
    /// For each node: its parent's index (or [`NONE`]), and where its named children
    /// start and end in `kids`.
    links: Vec<Links>,
    /// The named children of every node, each node's together and in order.
    kids: Vec<Node<'t>>,
    /// A node's id → its index.
    index: ById<u32>,
    language: LanguageRef<'t>,
    /// The ids of the fields asked for, by the address of their name (tree-sitter finds a
    /// field's id by comparing its name with every field's).
    field_ids: RefCell<ById<(usize, Option<u16>)>>,
}

#[derive(Clone, Copy)]
struct Links {
    parent: u32,
    kids_start: u32,
    kids_end: u32,
}

/// The tree is deeper than the limit given.
pub(crate) struct TooDeep;

impl<'t> Syntax<'t> {
    /// Walks `tree`, parsed from `src`, once; refused when it is deeper than `max_depth`
    /// (the depth counted as a cursor counts it: the root's children are at depth 1).
    pub(crate) fn index(
        tree: &'t Tree,
        src: &'t str,
        max_depth: usize,
    ) -> Result<Syntax<'t>, TooDeep> {
        let root = tree.root_node();
        // Tree-sitter keeps the count of visible nodes: the tables are made once, full size.
        let count = root.descendant_count();
        let mut nodes = Vec::with_capacity(count);
        let mut links: Vec<Links> = Vec::with_capacity(count);
        let mut index = ById::with_capacity_and_hasher(count, Default::default());
        // The index of the node at each depth of the cursor.
        let mut path: Vec<u32> = Vec::new();
        let mut cursor = root.walk();
        loop {
            let node = cursor.node();
            let parent = path.last().copied().unwrap_or(NONE);
            let at = u32::try_from(nodes.len()).map_err(|_| TooDeep)?;
            if parent != NONE && node.is_named() {
                // Counted here; made a range of `kids` by `link`.
                if let Some(p) = links.get_mut(parent as usize) {
                    p.kids_end += 1;
                }
            }
            nodes.push(node);
            links.push(Links {
                parent,
                kids_start: 0,
                kids_end: 0,
            });
            index.insert(node.id(), at);
            if cursor.goto_first_child() {
                path.push(at);
                if path.len() > max_depth {
                    return Err(TooDeep);
                }
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return Ok(Syntax::link(root, src, nodes, links, index));
                }
                path.pop();
            }
        }
    }

    /// Groups the named nodes by parent (a counting sort, so siblings keep their order):
    /// `links` holds each node's parent and its count of named children.
    fn link(
        root: Node<'t>,
        src: &'t str,
        nodes: Vec<Node<'t>>,
        mut links: Vec<Links>,
        index: ById<u32>,
    ) -> Syntax<'t> {
        let mut next = 0u32;
        for l in &mut links {
            let count = l.kids_end;
            l.kids_start = next;
            l.kids_end = next;
            next += count;
        }
        let mut kids = vec![root; next as usize];
        for (i, node) in nodes.iter().enumerate() {
            let parent = links[i].parent;
            if parent != NONE && node.is_named() {
                let l = &mut links[parent as usize];
                kids[l.kids_end as usize] = *node;
                l.kids_end += 1;
            }
        }
        Syntax {
            root,
            src,
            nodes,
            links,
            kids,
            index,
            language: root.language(),
            field_ids: RefCell::default(),
        }
    }

    pub(crate) fn root(&self) -> Node<'t> {
        self.root
    }

    /// The text of `n`.
    pub(crate) fn text(&self, n: Node) -> &'t str {
        super::text(self.src, n)
    }

    fn links(&self, n: Node) -> Option<Links> {
        let i = *self.index.get(&n.id())?;
        self.links.get(i as usize).copied()
    }

    /// The named children of `n`, in order.
    pub(crate) fn named_children(&'t self, n: Node<'t>) -> Kids<'t> {
        match self.links(n) {
            Some(l) => Kids(Cow::Borrowed(
                self.kids
                    .get(l.kids_start as usize..l.kids_end as usize)
                    .unwrap_or(&[]),
            )),
            // Every visible node of the tree was recorded; a node of another tree is read
            // from the tree itself.
            None => {
                let mut c = n.walk();
                Kids(Cow::Owned(n.named_children(&mut c).collect()))
            }
        }
    }

    /// The child of `n` in its field `name` (as [`Node::child_by_field_name`]).
    pub(crate) fn field(&self, n: Node<'t>, name: &'static str) -> Option<Node<'t>> {
        let key = name.as_ptr() as usize;
        let known = self.field_ids.borrow().get(&key).copied();
        let id = match known {
            Some((len, id)) if len == name.len() => id,
            _ => {
                let id = self.language.field_id_for_name(name).map(|f| f.get());
                self.field_ids.borrow_mut().insert(key, (name.len(), id));
                id
            }
        };
        n.child_by_field_id(id?)
    }

    /// The parent of `n` (none for the root).
    pub(crate) fn parent(&self, n: Node<'t>) -> Option<Node<'t>> {
        match self.links(n) {
            Some(l) if l.parent == NONE => None,
            Some(l) => self.nodes.get(l.parent as usize).copied(),
            None => n.parent(),
        }
    }
}

/// The named children of a node.
/// What a language reader's walker asks of the tree, answered from its [`Syntax`] index.
pub(crate) trait SyntaxWalk<'t> {
    /// The index of the tree being walked.
    fn syntax(&self) -> &'t Syntax<'t>;
    /// The named children of `n`.
    fn kids(&self, n: Node<'t>) -> Kids<'t> {
        self.syntax().named_children(n)
    }
    /// The child of `n` in its field `name`.
    fn field(&self, n: Node<'t>, name: &'static str) -> Option<Node<'t>> {
        self.syntax().field(n, name)
    }
    /// The parent of `n`.
    fn parent(&self, n: Node<'t>) -> Option<Node<'t>> {
        self.syntax().parent(n)
    }
    /// The text of `n`.
    fn t(&self, n: Node) -> &'t str {
        self.syntax().text(n)
    }
}

pub(crate) struct Kids<'t>(Cow<'t, [Node<'t>]>);

impl<'t> Kids<'t> {
    pub(crate) fn as_slice(&self) -> &[Node<'t>] {
        &self.0
    }
}

impl<'t> std::ops::Deref for Kids<'t> {
    type Target = [Node<'t>];
    fn deref(&self) -> &[Node<'t>] {
        &self.0
    }
}

impl<'t> IntoIterator for Kids<'t> {
    type Item = Node<'t>;
    type IntoIter = KidsIter<'t>;
    fn into_iter(self) -> KidsIter<'t> {
        let end = self.0.len();
        KidsIter {
            kids: self,
            at: 0,
            end,
        }
    }
}

/// The named children of a node, one by one.
pub(crate) struct KidsIter<'t> {
    kids: Kids<'t>,
    /// The next child from the front, and one past the next from the back.
    at: usize,
    end: usize,
}

impl<'t> Iterator for KidsIter<'t> {
    type Item = Node<'t>;
    fn next(&mut self) -> Option<Node<'t>> {
        if self.at >= self.end {
            return None;
        }
        let n = self.kids.0.get(self.at).copied()?;
        self.at += 1;
        Some(n)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end.saturating_sub(self.at);
        (left, Some(left))
    }
}

impl<'t> DoubleEndedIterator for KidsIter<'t> {
    fn next_back(&mut self) -> Option<Node<'t>> {
        if self.end <= self.at {
            return None;
        }
        self.end -= 1;
        self.kids.0.get(self.end).copied()
    }
}

/// Hashes a node's id (an address, unique in its tree) by one multiplication.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(26);
    }
}

#[cfg(test)]
mod tests {
    use tree_sitter::{Language, Parser};

    use super::*;

    fn parse(language: Language, src: &str) -> Tree {
        let mut p = Parser::new();
        p.set_language(&language).expect("grammar");
        p.parse(src, None).expect("parsed")
    }

    /// Every node's children and parent, as the index gives them, are tree-sitter's own.
    #[test]
    fn children_and_parents_are_the_trees() {
        let cases: [(Language, &str); 4] = [
            (
                tree_sitter_python::LANGUAGE.into(),
                "import os\nfor f in os.listdir('.'):\n    print(f, [x for x in f if x])\n",
            ),
            (
                tree_sitter_javascript::LANGUAGE.into(),
                "const fs = require('fs');\nfor (const f of fs.readdirSync('.')) { console.log(`${f}`); }\n",
            ),
            (
                tree_sitter_ruby::LANGUAGE.into(),
                "Dir.children('.').each do |f|\n  puts f if f.size > 1\nend\n",
            ),
            (
                tree_sitter_php::LANGUAGE_PHP_ONLY.into(),
                "foreach (scandir('.') as $f) { echo strtoupper($f); }",
            ),
        ];
        for (language, src) in cases {
            let tree = parse(language, src);
            let Ok(syntax) = Syntax::index(&tree, src, 100) else {
                panic!("too deep: {src}");
            };
            let mut seen = 0;
            let mut cursor = tree.root_node().walk();
            let mut stack = vec![tree.root_node()];
            while let Some(n) = stack.pop() {
                seen += 1;
                let kids: Vec<Node> = n.named_children(&mut cursor).collect();
                assert_eq!(
                    syntax.named_children(n).as_slice(),
                    kids.as_slice(),
                    "{src}"
                );
                assert_eq!(
                    syntax
                        .named_children(n)
                        .into_iter()
                        .rev()
                        .collect::<Vec<_>>(),
                    kids.iter().rev().copied().collect::<Vec<_>>()
                );
                assert_eq!(syntax.parent(n), n.parent(), "{src}");
                stack.extend(n.children(&mut cursor));
            }
            assert_eq!(seen, tree.root_node().descendant_count(), "{src}");
        }
    }

    /// The depth is the cursor's: a tree just deeper than the bound is refused, one at it
    /// is not.
    #[test]
    fn depth_is_bounded() {
        let src = "print(((1)))\n";
        let tree = parse(tree_sitter_python::LANGUAGE.into(), src);
        let mut cursor = tree.root_node().walk();
        let (mut d, mut depth) = (0, 0);
        'walk: loop {
            if cursor.goto_first_child() {
                d += 1;
                depth = depth.max(d);
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
                d -= 1;
            }
        }
        assert!(Syntax::index(&tree, src, depth).is_ok());
        assert!(Syntax::index(&tree, src, depth - 1).is_err());
    }

    #[test]
    fn fields_are_found_by_name() {
        let src = "x = open('a')\n";
        let tree = parse(tree_sitter_python::LANGUAGE.into(), src);
        let Ok(syntax) = Syntax::index(&tree, src, 100) else {
            panic!("too deep");
        };
        let mut cursor = tree.root_node().walk();
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            for name in ["left", "right", "function", "arguments", "nothing"] {
                assert_eq!(syntax.field(n, name), n.child_by_field_name(name));
                // Asked again: from the ids kept.
                assert_eq!(syntax.field(n, name), n.child_by_field_name(name));
            }
            stack.extend(n.children(&mut cursor));
        }
    }
}

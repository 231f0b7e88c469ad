//! What the four readers with a grammar (Python, JavaScript, Ruby, PHP) share: two passes
//! over the syntax tree and a bounded evaluation.
//!
//! Each reader is a `Walker` of its own, with the names its language binds. It reads a
//! snippet in two passes from the root: [`Reader::collect`] notes the names the snippet
//! binds, defines and assigns, then [`Reader::walk`] judges every node with them, listing
//! effects in the reader's [`Judged`]. [`judge`] runs the two. What an expression computes
//! is [`Evaluator::eval`]: the language's [`Evaluator::eval_inner`], within
//! [`MAX_EVAL_DEPTH`] and the snippet's budget of steps, beyond which a value is unknown.
//! The languages supply only what differs: what each node means and what a value holds.

use tree_sitter::Node;

use super::{Judged, SyntaxWalk};

/// How deep the readers evaluate an expression: what lies deeper has no known value.
pub(crate) const MAX_EVAL_DEPTH: usize = 24;

/// A reader's two passes over a snippet's tree.
pub(crate) trait Reader<'t>: SyntaxWalk<'t> {
    /// The effects found so far.
    fn out(&mut self) -> &mut Judged;
    /// The first pass: the names `n` and what is under it bind, define and assign.
    fn collect(&mut self, n: Node<'t>);
    /// The second pass: what `n` and what is under it do.
    fn walk(&mut self, n: Node<'t>);
    /// Walks each named child of `n`.
    fn children(&mut self, n: Node<'t>) {
        for c in self.kids(n) {
            self.walk(c);
        }
    }
}

/// A reader's values: what an expression computes, as far as the text tells it.
pub(crate) trait Evaluator<'t>: Reader<'t> {
    /// What the language's expressions compute.
    type Value;
    /// The value of an expression not followed.
    const UNKNOWN: Self::Value;
    /// How deep the evaluation under way is.
    fn depth(&mut self) -> &mut usize;
    /// The value of `n`, one level of it (its parts through [`Evaluator::eval`]).
    fn eval_inner(&mut self, n: Node<'t>) -> Self::Value;
    /// The value of `n`: unknown deeper than [`MAX_EVAL_DEPTH`] or once the snippet's
    /// steps are spent.
    fn eval(&mut self, n: Node<'t>) -> Self::Value {
        if *self.depth() > MAX_EVAL_DEPTH || !self.out().step() {
            return Self::UNKNOWN;
        }
        *self.depth() += 1;
        let v = self.eval_inner(n);
        *self.depth() -= 1;
        v
    }
}

/// The effects of the snippet `reader` holds: both passes from the root.
pub(crate) fn judge<'t>(mut reader: impl Reader<'t>) -> Judged {
    let root = reader.syntax().root();
    reader.collect(root);
    reader.walk(root);
    std::mem::take(reader.out())
}

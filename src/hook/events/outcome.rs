//! What the gate adds to the policy's answer to a call: the workflow's context and phase,
//! what let a Confirm call run unasked, where a call that needs escalating goes, and the
//! confinement it runs in. [`super::gate`] fills it in, with [`super::autonomy`] and
//! [`super::confinement`]; the hook's answer is built from it.

use crate::engine::classify::Decision;
use crate::engine::policy::Tier;

/// What the workflow adds to a gate answer.
#[derive(Debug, Default)]
pub struct GateOutcome {
    /// Context for the agent (e.g. a phase change).
    pub context: Option<String>,
    /// The workflow phase the call was judged in, when a workflow is active.
    pub phase: Option<&'static str>,
    /// What let a Confirm call run without asking: `autonomy` for a relaxable one,
    /// `sandbox` for a contained one in Claude Code's sandbox, `confinement` for one the
    /// hook runs confined; its tier stays Confirm, the answer is `allow`.
    pub relaxed_by: Option<&'static str>,
    /// Where the call goes when it needs escalating (see [`crate::workflow::escalation`]), for the answer.
    pub escalation: Option<String>,
    /// The confinement the call runs in, when it is let through on a prediction (see
    /// [`super::confinement`]).
    pub confine: Option<crate::confine::Profile>,
}

impl GateOutcome {
    /// The tier the answer is given for: Safe for a Confirm call that was relaxed.
    pub fn answer_tier(&self, decision: &Decision) -> Tier {
        match (decision.verdict.tier, self.relaxed_by) {
            (Tier::Confirm, Some(_))
                if decision.verdict.relaxable || decision.verdict.contained =>
            {
                Tier::Safe
            }
            (t, _) => t,
        }
    }
}

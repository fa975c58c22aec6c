//! Even the input load per thread within the counts. When every task has an
//! observed input rate, the client running the most input per thread gives
//! to one of the least loaded by a move that needs no restore (a stateless
//! active, or a stateful one the receiver is caught up on) or by a swap of
//! two such actives: the step that leaves the higher of the two lowest,
//! taken only when that is below the giver's load now and every count stays
//! within its share bounds. Each step lowers the highest load or the number
//! of clients at it, so the pass ends; it stops at the first giver with no
//! such step, and takes at most one step per task.

use crate::model::{ClientIx, TaskIx};

use super::work::Work;

/// How many of the least loaded clients a giver tries, least loaded first.
const RECEIVERS: usize = 4;

/// A step from the giver `a` to the receiver `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    /// `a`'s active moves to `b`.
    Move(TaskIx),
    /// `a`'s active (first) and `b`'s (second) change places.
    Swap(TaskIx, TaskIx),
}

/// An active one client may hand to another without a restore: its weight,
/// the task, whether it is stateful.
type Item = (u64, TaskIx, bool);

/// Evens the input load per thread as far as such steps go (module doc);
/// nothing without input rates.
pub(super) fn even_input(work: &mut Work<'_>) {
    if work.weight.is_none() {
        return;
    }
    work.input.index();
    for _ in work.tasks() {
        let Some(a) = work.input.most_loaded(|_| false) else {
            return;
        };
        let receivers: Vec<ClientIx> = work
            .input
            .ascending()
            .filter(|&b| b != a)
            .take(RECEIVERS)
            .collect();
        let Some((b, step)) = receivers
            .into_iter()
            .find_map(|b| best_step(work, a, b).map(|step| (b, step)))
        else {
            return;
        };
        match step {
            Step::Move(x) => work.move_active(x, b),
            Step::Swap(x, y) => {
                work.move_active(x, b);
                work.move_active(y, a);
            }
        }
    }
}

/// The actives `from` may hand to `to` without a restore, by weight.
fn handable(work: &Work<'_>, from: ClientIx, to: ClientIx) -> Vec<Item> {
    let stateless = work.stateless_on[from]
        .iter()
        .map(|&t| (work.weight_of(t), t, false));
    let stateful = work.stateful_on[from]
        .iter()
        .filter(|&&t| work.warmup[t].is_none() && work.caught_up(to, t))
        .map(|&t| (work.weight_of(t), t, true));
    let mut items: Vec<Item> = stateless.chain(stateful).collect();
    items.sort_unstable();
    items
}

/// The best step from `a` to `b` (module doc), if one lowers `a`'s load
/// per thread without raising `b`'s to it. O((actives of both) · log).
fn best_step(work: &Work<'_>, a: ClientIx, b: ClientIx) -> Option<Step> {
    let input = &work.input;
    let (la, lb) = (input.load[a], input.load[b]);
    let now = input.per_thread(a);
    // The highest of the two loads per thread after `delta` moves from a to b.
    let after = |delta: u64| {
        input
            .per_thread_at(a, la - delta)
            .max(input.per_thread_at(b, lb + delta))
    };
    let from_a = handable(work, a, b);
    let from_b = handable(work, b, a);
    let moves_ok = work.total.gives(a) && work.total.fits(b);
    let stateful_ok =
        |giver: ClientIx, taker: ClientIx| work.stateful.gives(giver) && work.stateful.fits(taker);
    // The delta that would leave both equal per thread.
    let (ka, kb) = (u128::from(input.threads(a)), u128::from(input.threads(b)));
    // At most la · kb / (ka + kb) < la.
    let ideal =
        u64::try_from((u128::from(la) * kb).saturating_sub(u128::from(lb) * ka) / (ka + kb))
            .unwrap_or(la);
    let mut best: Option<(u128, Step)> = None;
    let mut consider = |score: u128, step: Step| {
        if score < now && best.is_none_or(|known| (score, step) < known) {
            best = Some((score, step));
        }
    };
    for &(wx, x, x_stateful) in &from_a {
        if wx == 0 {
            continue;
        }
        if moves_ok && (!x_stateful || stateful_ok(a, b)) {
            consider(after(wx), Step::Move(x));
        }
        // Swaps with a lighter active of b's, nearest the ideal difference.
        let target = wx.saturating_sub(ideal);
        let at = from_b.partition_point(|&(w, _, _)| w < target);
        for &(wy, y, y_stateful) in from_b[at.saturating_sub(1)..].iter().take(2) {
            if wy >= wx {
                continue;
            }
            let counts_ok = match (x_stateful, y_stateful) {
                (true, false) => stateful_ok(a, b),
                (false, true) => stateful_ok(b, a),
                _ => true,
            };
            if counts_ok {
                consider(after(wx - wy), Step::Swap(x, y));
            }
        }
    }
    best.map(|(_, step)| step)
}

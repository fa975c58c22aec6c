//! Bringing every client within its fair share, one task at a time, from
//! donors to receivers. The same phases serve stateful tasks (a task goes by
//! a learner, or at once to a caught-up receiver) and stateless ones (moved).
//!
//! With `(lo, hi) = (⌊f⌋, ⌈f⌉)` a client's fair share `f` of the kind (0 for
//! a leaving client), the phases are:
//!
//! 1. donors above `hi` (or leaving with any) to receivers below `lo`;
//! 2. the same donors to receivers below `hi`;
//! 3. donors above `lo` to receivers still below `lo`.
//!
//! Counts are intended counts, so their sum is fixed and every client ends
//! within `lo ..= hi` unless no donor has a task it can give. Receivers are
//! served in id order. Each transfer lowers the total distance to the
//! shares, so there are at most as many transfers as tasks.

use super::work::{Bounds, Kind, Work};
use crate::model::ClientIx;

/// Whether client `c` may give a task away in `phase`.
fn donor(work: &Work, kind: Kind, bounds: &Bounds, phase: usize, c: ClientIx) -> bool {
    let load = work.load[kind as usize][c];
    let (lo, hi) = bounds[c];
    (work.leaving[c] && load > 0) || load > if phase == 3 { lo } else { hi }
}

/// Whether client `c` should receive a task in `phase`.
fn receiver(work: &Work, kind: Kind, bounds: &Bounds, phase: usize, c: ClientIx) -> bool {
    let load = work.load[kind as usize][c];
    let (lo, hi) = bounds[c];
    !work.leaving[c] && load < if phase == 2 { hi } else { lo }
}

/// Runs the three phases; `shift(work, receiver, is_donor)` moves one task
/// of a client passing `is_donor` toward `receiver`, or returns false when
/// none can go.
pub(super) fn balance(
    work: &mut Work,
    kind: Kind,
    bounds: &Bounds,
    mut shift: impl FnMut(&mut Work, ClientIx, &dyn Fn(&Work, ClientIx) -> bool) -> bool,
) {
    for phase in 1..=3 {
        for r in work.clients() {
            while receiver(work, kind, bounds, phase, r) {
                let is_donor = |w: &Work, c: ClientIx| c != r && donor(w, kind, bounds, phase, c);
                if !shift(work, r, &is_donor) {
                    break;
                }
            }
        }
    }
}

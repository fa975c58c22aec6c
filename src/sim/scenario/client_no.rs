//! [`ClientNo`]: a client's number, by which scenarios name clients (`c3`)
//! and the simulator keeps them.

use std::fmt;

use crate::model::ix::position;
use crate::model::Ix;

position!(
    /// A client's number: `c3` is the fourth client created. Clients are
    /// never reused, so the number is also the client's position in the
    /// simulator's list of clients (and in the membership replay's). It
    /// displays as the client's name, `c3`.
    pub(crate) ClientNo,
    "c"
);

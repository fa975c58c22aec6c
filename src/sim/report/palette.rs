//! The colours that tell strategies apart in charts, the same in the plots
//! of `smoothscale simulate` and in the paper's figures: a strategy's colour
//! is fixed by its place in the registry.

/// Paul Tol's "muted" qualitative scheme, nine colours that stay apart for
/// the common colour-vision deficiencies and in greyscale print, then black
/// (smoothscale's own strategy, registered last), as `(red, green, blue)`.
const PALETTE: [(u8, u8, u8); 10] = [
    (0x33, 0x22, 0x88), // indigo
    (0xCC, 0x66, 0x77), // rose
    (0x11, 0x77, 0x33), // green
    (0xDD, 0xCC, 0x77), // sand
    (0x88, 0xCC, 0xEE), // cyan
    (0x88, 0x22, 0x55), // wine
    (0x44, 0xAA, 0x99), // teal
    (0x99, 0x99, 0x33), // olive
    (0xAA, 0x44, 0x99), // purple
    (0x00, 0x00, 0x00), // black
];

/// The `i`-th colour: the palette's ten, then the same darkened by 30 % per
/// round (at most three rounds), so every place up to 40 has its own.
pub fn colour(i: usize) -> (u8, u8, u8) {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    let round = u32::try_from(i / PALETTE.len()).map_or(3, |r| r.min(3));
    let dark = |c: u8| u8::try_from(u32::from(c) * (10 - 3 * round) / 10).unwrap_or(u8::MAX);
    (dark(r), dark(g), dark(b))
}

/// A strategy's place in the registry, which fixes its colour; `None` for
/// a name the registry does not know.
pub fn place(strategy: &str) -> Option<usize> {
    crate::assignor::names().iter().position(|n| *n == strategy)
}

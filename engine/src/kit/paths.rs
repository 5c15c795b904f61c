//! Shortest movement of a figure that has a facing, on a square grid: steps relative to the
//! facing (which keep it), turns on the spot, and hops over a field to the one beyond, each
//! with its cost. What may be passed, ended on, hopped over, and what ends a move when
//! entered, are sets of fields the game fills in ([`Mover`]): the game's rules as data, so
//! that checking one recorded move ([`Mover::apply`]) and searching every path
//! ([`Mover::from`], [`Mover::to`]) cannot disagree.
//!
//! Boards are at most [`Cells::SIDE`] fields a side, and a set of fields is a 256-bit board
//! (16 bits a row), so a search moves every place of one cost at once: layer `k` holds, per
//! facing, the fields first reached at cost `k`, built from the layers a turn, a step or a
//! hop before it by shifting whole boards (a breadth-first search by cost, with costs the
//! small integers movement has).

use super::grid::{Board, Facing, Pos, Rel, Turn};
use std::fmt;

/// A set of fields of a board of at most [`Cells::SIDE`] x [`Cells::SIDE`]: bit `16 y + x`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Cells([u64; 4]);

impl Cells {
    /// The longest side of a board a set (and a search) covers.
    pub const SIDE: i16 = 16;

    /// The bit of a field: `16 y + x`, when both are in `0..16`. One test for both (a
    /// negative coordinate, as `u16`, is 0x8000 or more), and the result below 256 (so the
    /// word `i / 64` needs no bounds check where the callers mask it with `& 3`).
    #[inline]
    fn index(p: Pos) -> Option<usize> {
        ((p.x as u16 | p.y as u16) < Cells::SIDE as u16).then_some(((p.y as usize) << 4) | p.x as usize)
    }
    #[inline]
    pub const fn new() -> Cells {
        Cells([0; 4])
    }
    /// The set whose four words (16 rows of 16 bits, the first row lowest) are `w`: what
    /// [`Cells::words`] gave (a set kept in a state's atomics is stored and read this way).
    #[inline]
    pub const fn from_words(w: [u64; 4]) -> Cells {
        Cells(w)
    }
    /// The set's four words ([`Cells::from_words`]).
    #[inline]
    pub const fn words(self) -> [u64; 4] {
        self.0
    }
    /// Every field of `board`.
    pub fn all(board: Board) -> Cells {
        let mut c = Cells::new();
        let width = board.width.clamp(0, Cells::SIDE) as u32;
        let row = if width == 16 { 0xFFFF } else { (1u64 << width) - 1 };
        for y in 0..board.height.clamp(0, Cells::SIDE) as usize {
            c.0[y / 4] |= row << (16 * (y % 4));
        }
        c
    }
    /// The fields at most `r` from `c` (a square: diagonal steps count one), on the
    /// [`Cells::SIDE`] square: one row's mask laid on each row it spans (a goal around a
    /// target is made this way for every Creature check, rather than field by field).
    pub fn square(c: Pos, r: i16) -> Cells {
        let mut out = Cells::new();
        let (x, y, r) = (i32::from(c.x), i32::from(c.y), i32::from(r.max(0)));
        let last = i32::from(Cells::SIDE) - 1;
        let (lo, hi) = ((x - r).max(0), (x + r).min(last));
        if lo > hi {
            return out;
        }
        let row = ((1u64 << (hi - lo + 1)) - 1) << lo;
        for y in (y - r).max(0)..=(y + r).min(last) {
            out.0[(y / 4) as usize & 3] |= row << (16 * (y % 4));
        }
        out
    }
    #[inline]
    pub fn insert(&mut self, p: Pos) {
        if let Some(i) = Cells::index(p) {
            self.0[(i >> 6) & 3] |= 1 << (i & 63);
        }
    }
    #[inline]
    pub fn remove(&mut self, p: Pos) {
        if let Some(i) = Cells::index(p) {
            self.0[(i >> 6) & 3] &= !(1 << (i & 63));
        }
    }
    #[inline]
    pub fn contains(&self, p: Pos) -> bool {
        Cells::index(p).is_some_and(|i| self.0[(i >> 6) & 3] & (1 << (i & 63)) != 0)
    }
    /// The fields in `self` and not in `other`.
    #[inline]
    pub fn minus(self, other: Cells) -> Cells {
        Cells(Rows(self.0).minus(Rows(other.0)).0)
    }
    /// The fields in either.
    #[inline]
    pub fn union(self, other: Cells) -> Cells {
        Cells(Rows(self.0).union(Rows(other.0)).0)
    }
    /// The fields in both.
    #[inline]
    pub fn and(self, other: Cells) -> Cells {
        Cells(Rows(self.0).and(Rows(other.0)).0)
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        Rows(self.0).is_empty()
    }
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// Every field, row by row.
    pub fn iter(self) -> impl Iterator<Item = Pos> {
        (0..4).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let i = w * 64 + b;
                Some(Pos::new((i % 16) as i16, (i / 16) as i16))
            })
        })
    }
    /// Every field moved by `(dx, dy)`; what leaves the 16 x 16 square is dropped.
    /// The columns that would wrap into the next row are masked off first; then the whole
    /// 256-bit board shifts at once (a row is 16 bits). Straight-line code for the moves of
    /// a search, which shifts whole boards many times.
    #[inline]
    pub fn shifted(self, dx: i16, dy: i16) -> Cells {
        if (-2..=2).contains(&dx) && (-2..=2).contains(&dy) {
            SHIFTS[((dx + 2) * 5 + dy + 2) as usize](self)
        } else {
            shift_cells(self, dx, dy)
        }
    }
    /// Whether every field of `self` lies in the first 12 rows and the first 14 columns: a
    /// search whose places all do (a board of at most 12 rows and 14 columns, the default
    /// 10 x 10 among them) runs on three words and its shifts clip no columns ([`shift_by`]).
    #[inline]
    fn narrow(&self) -> bool {
        let a = self.0;
        a[3] | (a[0] | a[1] | a[2]) & LAST_TWO_COLUMNS == 0
    }
}

/// The first `N` words of a set of fields (its rows `0..4 N`), combined word by word: what
/// [`Cells`] is made of (`N` = 4), and what a search works on when every set it combines
/// lies in those rows ([`Cells::narrow`]: a default board of 10 rows leaves the fourth word
/// empty, and a search spent a quarter of its work on it).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Rows<const N: usize>([u64; N]);

impl<const N: usize> Rows<N> {
    const EMPTY: Rows<N> = Rows([0; N]);
    /// The first `N` words of `c` (the fields of the others are dropped).
    #[inline(always)]
    fn of(c: Cells) -> Rows<N> {
        let mut w = [0; N];
        w.copy_from_slice(&c.0[..N]);
        Rows(w)
    }
    /// The set of fields, its other words empty.
    #[inline(always)]
    fn cells(self) -> Cells {
        let mut c = [0; 4];
        c[..N].copy_from_slice(&self.0);
        Cells(c)
    }
    /// `f` of each word of `self` with the same word of `other`: a loop of a constant
    /// count, unrolled (`[0, 1, 2, 3].map(..)` was left as a loop by the compiler, and the
    /// searches combine sets many times per layer).
    #[inline(always)]
    fn zip(self, other: Rows<N>, f: impl Fn(u64, u64) -> u64) -> Rows<N> {
        let mut out = [0; N];
        for i in 0..N {
            out[i] = f(self.0[i], other.0[i]);
        }
        Rows(out)
    }
    #[inline(always)]
    fn minus(self, other: Rows<N>) -> Rows<N> {
        self.zip(other, |a, b| a & !b)
    }
    #[inline(always)]
    fn union(self, other: Rows<N>) -> Rows<N> {
        self.zip(other, |a, b| a | b)
    }
    #[inline(always)]
    fn and(self, other: Rows<N>) -> Rows<N> {
        self.zip(other, |a, b| a & b)
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |a, w| a | w) == 0
    }
}

/// Each facing's set of a layer in its first `N` words ([`Rows`]).
#[inline(always)]
fn rows_of<const N: usize>(p: &Places) -> [Rows<N>; 4] {
    [Rows::of(p[0]), Rows::of(p[1]), Rows::of(p[2]), Rows::of(p[3])]
}

/// A layer's sets of `N` words as places ([`Rows::cells`]).
#[inline(always)]
fn places_of<const N: usize>(r: &[Rows<N>; 4]) -> Places {
    [r[0].cells(), r[1].cells(), r[2].cells(), r[3].cells()]
}

/// [`Cells::shifted`] for each offset up to two fields, its numbers known to the compiler
/// (a search's own shifts go through the per-direction tables below).
static SHIFTS: [fn(Cells) -> Cells; 25] = {
    macro_rules! row {
        ($dx:literal) => {
            [
                |c| shift_cells(c, $dx, -2),
                |c| shift_cells(c, $dx, -1),
                |c| shift_cells(c, $dx, 0),
                |c| shift_cells(c, $dx, 1),
                |c| shift_cells(c, $dx, 2),
            ]
        };
    }
    let rows: [[fn(Cells) -> Cells; 5]; 5] = [row!(-2), row!(-1), row!(0), row!(1), row!(2)];
    let mut out: [fn(Cells) -> Cells; 25] = [|c| c; 25];
    let mut i = 0;
    while i < 25 {
        out[i] = rows[i / 5][i % 5];
        i += 1;
    }
    out
};

/// [`Cells::shifted`], worked out on the whole set.
#[inline(always)]
fn shift_cells(c: Cells, dx: i16, dy: i16) -> Cells {
    Cells(shift_by::<4, true>(Rows(c.0), dx, dy).0)
}

/// The last two columns of each row, in every word: where a set that lies in the first 14
/// columns has nothing ([`Cells::narrow`]), and where an unclipped shift leaves its strays.
const LAST_TWO_COLUMNS: u64 = 0xC000_C000_C000_C000;

/// [`Cells::shifted`], worked out, on the first `N` words: what leaves them is dropped, and
/// nothing comes in from the words after them.
///
/// Unless `CLIP`, the columns that would wrap into the next row (or the last) are not masked
/// off first, and a move along the rows carries nothing between the words: exact for a set
/// in the first 14 columns ([`Cells::narrow`]) but for what it moves into the last two
/// columns, which a search then cuts away with the fields it may pass. Three instructions of
/// ~fifteen a move, and a search moves whole boards a dozen times a layer.
#[inline(always)]
fn shift_by<const N: usize, const CLIP: bool>(c: Rows<N>, dx: i16, dy: i16) -> Rows<N> {
    if !CLIP {
        if dy != 0 {
            return Rows(shift_bits(c.0, i32::from(dx) + 16 * i32::from(dy)));
        }
        // Along the rows: a word's top row's last columns are empty, and its first row's first
        // columns move into the two last of the row before.
        let d = u32::from(dx.unsigned_abs());
        return c.zip(c, |w, _| if dx >= 0 { w << d } else { w >> d });
    }
    const ROWS: u64 = 0x0001_0001_0001_0001;
    let d = u32::from(dx.unsigned_abs().min(16));
    let keep = if dx >= 0 { (0xFFFF_u64 >> d) * ROWS } else { ((0xFFFF_u64 << d) & 0xFFFF) * ROWS };
    let a = c.zip(Rows([keep; N]), |w, k| w & k);
    Rows(shift_bits(a.0, i32::from(dx) + 16 * i32::from(dy)))
}

/// A shift of `64 N` bits by `n` bits toward the high end (`n < 0`: toward the low end),
/// carrying between the words.
#[inline(always)]
fn shift_bits<const N: usize>(a: [u64; N], n: i32) -> [u64; N] {
    let mut out = [0; N];
    match n {
        0 => return a,
        1..=63 => {
            let (l, r) = (n as u32, 64 - n as u32);
            for i in 0..N {
                out[i] = a[i] << l | if i > 0 { a[i - 1] >> r } else { 0 };
            }
        }
        -63..=-1 => {
            let (r, l) = (n.unsigned_abs(), 64 - n.unsigned_abs());
            for i in 0..N {
                out[i] = a[i] >> r | if i + 1 < N { a[i + 1] << l } else { 0 };
            }
        }
        _ => return shift_far(a, n),
    }
    out
}

/// [`shift_bits`] by 64 bits or more: whole words, then the bits left. No search moves
/// this far; a Careful Advance's goal moves a square from the board's corner onto its
/// target this way (bit by bit, that cost ~700 instructions a goal).
fn shift_far<const N: usize>(a: [u64; N], n: i32) -> [u64; N] {
    let mut out = [0u64; N];
    if n.unsigned_abs() as usize >= 64 * N {
        return out;
    }
    let words = (n.unsigned_abs() / 64) as usize;
    let bits = n.unsigned_abs() % 64;
    let word = |j: Option<usize>| j.filter(|&j| j < N).map_or(0, |j| a[j]);
    for (i, o) in out.iter_mut().enumerate() {
        // Toward the high end word `i` takes word `i - words` and the top bits of the one
        // below it; toward the low end, word `i + words` and the bottom bits of the one above.
        let (from, carry) = if n > 0 {
            (i.checked_sub(words), i.checked_sub(words + 1))
        } else {
            (Some(i + words), Some(i + words + 1))
        };
        *o = match bits {
            0 => word(from),
            b if n > 0 => word(from) << b | word(carry) >> (64 - b),
            b => word(from) >> b | word(carry) << (64 - b),
        };
    }
    out
}

impl fmt::Debug for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Where a figure stands and where it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Place {
    pub at: Pos,
    pub facing: Facing,
}

impl Place {
    pub const fn new(at: Pos, facing: Facing) -> Place {
        Place { at, facing }
    }
}

/// A set of places: per facing, a set of fields.
pub type Places = [Cells; 4];

/// One move of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// One field in a direction relative to the facing; the facing is kept.
    Step(Rel),
    /// A turn on the spot.
    Turn(Turn),
    /// Over the next field in that direction (one that may be hopped over) to the field
    /// beyond it.
    Hop(Rel),
}

/// Why a move cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Not a step this figure may take (a direction its rules do not allow).
    NotAStep(Rel),
    /// It cannot hop at all, or not over that field.
    NoHop(Pos),
    /// Off the board.
    OffBoard(Pos),
    /// A field it may not enter or pass.
    Blocked(Pos),
    /// It stands on a field that ended its move.
    Stopped(Pos),
}

/// Whether two sets of places share one: the facings' common fields united and tested once
/// (a test and a branch per facing cost more, and the searches ask it of every layer).
#[inline]
pub fn meet(a: &Places, b: &Places) -> bool {
    !a[0].and(b[0]).union(a[1].and(b[1])).union(a[2].and(b[2])).union(a[3].and(b[3])).is_empty()
}

/// How a figure moves: the game's movement rules as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mover<'a> {
    pub board: Board,
    /// The directions of a step (cost 1, facing kept).
    pub steps: &'a [Rel],
    /// The cost of a turn, whatever its angle.
    pub turn_cost: u8,
    /// The cost of a hop over a `hop_over` field, in a step direction; `None`: no hops.
    pub hop_cost: Option<u8>,
    /// Fields it may be on during the move (its own field included).
    pub pass: Cells,
    /// Fields it may end its move on.
    pub end: Cells,
    /// Fields a hop may cross.
    pub hop_over: Cells,
    /// Fields that end the move when entered (nothing follows from them).
    pub stop: Cells,
}

/// The cost of every place a search reached, up to its bound: layer `k` holds the places of
/// cost `k`.
#[derive(Clone, Default)]
pub struct Distances {
    layers: Vec<Places>,
}

impl Distances {
    /// No place reached (no search made).
    pub const fn new() -> Distances {
        Distances { layers: Vec::new() }
    }
    /// The cost at `place`, when the search reached it.
    pub fn get(&self, place: Place) -> Option<u8> {
        let f = place.facing.index();
        self.layers.iter().position(|l| l[f].contains(place.at)).map(|k| k as u8)
    }
    /// The number of layers (costs 0 to one less than it).
    pub fn len(&self) -> usize {
        self.layers.len()
    }
    /// Whether no layer was made.
    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }
    /// The places of cost `k`.
    pub fn layer(&self, k: u8) -> Option<&Places> {
        self.layers.get(usize::from(k))
    }
    /// The lowest cost of a place in `goal`.
    pub fn first_in(&self, goal: &Places) -> Option<u8> {
        self.layers.iter().position(|l| meet(l, goal)).map(|k| k as u8)
    }
    /// Every place reached, with its cost, cheapest first.
    pub fn reached(&self) -> impl Iterator<Item = (Place, u8)> + '_ {
        self.layers.iter().enumerate().flat_map(|(k, l)| {
            Facing::ALL
                .iter()
                .flat_map(move |&f| l[f.index()].iter().map(move |at| (Place::new(at, f), k as u8)))
        })
    }
    /// Every place reached, per facing, whatever its cost.
    pub fn all(&self) -> Places {
        let mut all = [Cells::new(); 4];
        for l in &self.layers {
            for f in 0..4 {
                all[f] = all[f].union(l[f]);
            }
        }
        all
    }
}

impl fmt::Debug for Distances {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.reached()).finish()
    }
}

/// A search from one place that stops when its user has what it needs and goes on when
/// asked ([`Mover::search`], [`Mover::go_on`]): the layers made so far and what growing them
/// further takes. A check that needs only the cost of the nearest goal stops there; one that
/// needs every place within the bound carries it to the end.
#[derive(Clone, Default)]
pub struct Search {
    dist: Distances,
    /// Empty layers in a row at the end (none grows from as many as the costliest move).
    quiet: u8,
    /// No layer is to come.
    over: bool,
    bound: u8,
}

impl Search {
    /// The layers made so far: every one up to the bound once [`Search::is_over`].
    pub fn distances(&self) -> &Distances {
        &self.dist
    }
    /// Whether every layer has been made.
    pub fn is_over(&self) -> bool {
        self.over
    }
}

/// The fields a turn from (or, searching backward, to) the places of `layer` reaches, for
/// every facing: the union of all four facings' fields that may be left. A facing should
/// get only the other three's; its own are in it too, but they are places of an earlier
/// layer, which [`Mover::layered`] takes out of the new one: the same layer, with 4 unions
/// instead of 12.
#[inline(always)]
fn turned<const N: usize>(layer: &Places, movable: Rows<N>) -> Rows<N> {
    let [a, b, c, d] = [Rows::of(layer[0]), Rows::of(layer[1]), Rows::of(layer[2]), Rows::of(layer[3])];
    a.union(b).union(c).union(d).and(movable)
}

/// Every field of `p`, whatever the facing.
#[inline(always)]
fn fields_of(p: &Places) -> Cells {
    p[0].union(p[1]).union(p[2]).union(p[3])
}

/// The eight neighbouring offsets, clockwise from north: a step's world direction is kept
/// as its index here ([`Mover::offsets`]).
const NEAR: [(i16, i16); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// The index in [`NEAR`] of the world direction of a relative step for a figure facing
/// north (its offset then): each quarter turn clockwise is two places on ([`turning`]).
const fn clock(rel: Rel) -> u8 {
    match rel {
        Rel::F => 0,
        Rel::Fr => 1,
        Rel::R => 2,
        Rel::Br => 3,
        Rel::B => 4,
        Rel::Bl => 5,
        Rel::L => 6,
        Rel::Fl => 7,
    }
}

/// `$m!(d)` for each direction `d` of [`NEAR`], 0 to 7: a per-direction body written once
/// and unrolled with its direction a constant (for [`spread`] and [`spread_masked`]).
macro_rules! each_near {
    ($m:ident) => {
        $m!(0);
        $m!(1);
        $m!(2);
        $m!(3);
        $m!(4);
        $m!(5);
        $m!(6);
        $m!(7);
    };
}

/// `src` moved `K` fields toward each world direction of `dirs` (bit `d`: [`NEAR`]`[d]`;
/// `K` 1 for a step, 2 for a hop, negative against it), united: what a search grows from
/// one facing's places. Every shift is written out with its offset known to the compiler and
/// only the directions in `dirs` are taken (a branch each, the same for the whole search):
/// the shifts were calls through a table of functions, one per step per facing per layer,
/// and a call moved the 32-byte board in and out of memory.
#[inline(always)]
fn spread<const K: i16, const N: usize, const CLIP: bool>(src: Rows<N>, dirs: u8) -> Rows<N> {
    let mut out = Rows::EMPTY;
    macro_rules! toward {
        ($d:literal) => {
            if dirs & (1 << $d) != 0 {
                out = out.union(shift_by::<N, CLIP>(src, NEAR[$d].0 * K, NEAR[$d].1 * K));
            }
        };
    }
    each_near!(toward);
    out
}

/// As [`spread`], each direction's move taken only from the fields of `src` in that
/// direction's mask (`masks[d]`, [`Mover::hop_masks`]): the hops of a search, each from a
/// field next to one that may be hopped over.
#[inline(always)]
fn spread_masked<const K: i16, const N: usize, const CLIP: bool>(
    src: Rows<N>,
    dirs: u8,
    masks: &[Rows<N>; 8],
) -> Rows<N> {
    let mut out = Rows::EMPTY;
    macro_rules! toward {
        ($d:literal) => {
            if dirs & (1 << $d) != 0 {
                let from = src.and(masks[$d]);
                if !from.is_empty() {
                    out = out.union(shift_by::<N, CLIP>(from, NEAR[$d].0 * K, NEAR[$d].1 * K));
                }
            }
        };
    }
    each_near!(toward);
    out
}

/// The world directions of a set of steps for each facing (N, E, S, W), from those of a
/// figure facing north: the steps turn with the figure, a quarter turn clockwise being two
/// places on in [`NEAR`].
const fn turning(north: u8) -> [u8; 4] {
    [north, north.rotate_left(2), north.rotate_left(4), north.rotate_left(6)]
}

/// Forward, left and right, facing north (bits of [`NEAR`]: north, east, west); and the
/// same with the front diagonals (north-east, north-west). The step sets a search is
/// compiled for ([`moves`]); any other is searched as well, its directions tested layer by
/// layer.
const FORWARD_SIDES: u8 = 1 << 0 | 1 << 2 | 1 << 6;
const FORWARD_SIDES_DIAGONALS: u8 = FORWARD_SIDES | 1 << 1 | 1 << 7;

/// The places one move from a layer, per facing, before they are cut down to the fields
/// they may be on: each facing's steps (`K` fields, [`spread`]) from its places of `prev`
/// and its hops (`H`, [`spread_masked`]) from those of `hopped`, each from the fields of
/// `from` only. The step sets of [`FORWARD_SIDES`] and [`FORWARD_SIDES_DIAGONALS`] get code
/// of their own with every direction known to the compiler (no direction is tested per
/// layer: a search is a few layers, and the tests were a fifth of a layer's work).
#[inline(always)]
fn moves<const K: i16, const H: i16, const N: usize, const CLIP: bool>(
    dirs: [u8; 4],
    prev: &Places,
    hopped: Option<(&Places, &[Rows<N>; 8])>,
    from: Rows<N>,
) -> [Rows<N>; 4] {
    if dirs == turning(FORWARD_SIDES) {
        moves_with::<K, H, N, CLIP>(turning(FORWARD_SIDES), prev, hopped, from)
    } else if dirs == turning(FORWARD_SIDES_DIAGONALS) {
        moves_with::<K, H, N, CLIP>(turning(FORWARD_SIDES_DIAGONALS), prev, hopped, from)
    } else {
        moves_with::<K, H, N, CLIP>(dirs, prev, hopped, from)
    }
}

/// [`moves`] for the directions `dirs` (constants where [`moves`] knows them).
#[inline(always)]
fn moves_with<const K: i16, const H: i16, const N: usize, const CLIP: bool>(
    dirs: [u8; 4],
    prev: &Places,
    hopped: Option<(&Places, &[Rows<N>; 8])>,
    from: Rows<N>,
) -> [Rows<N>; 4] {
    let mut out = [Rows::EMPTY; 4];
    // Written out facing by facing (a loop over them is not unrolled, and would look the
    // directions up at run time).
    macro_rules! facing {
        ($f:literal) => {
            // Each set read on the search's words where it is used (a copy of the layers
            // cut down first cost more than the search saved on them). A facing with no
            // place to move from is passed over: a search's first layer has one facing, and
            // a hop leaves from few.
            let src = Rows::of(prev[$f]).and(from);
            // Backward, from a goal, every facing has places from the start: no test.
            if K < 0 || !src.is_empty() {
                out[$f] = spread::<K, N, CLIP>(src, dirs[$f]);
            }
            if let Some((h, masks)) = hopped {
                let src = Rows::of(h[$f]).and(from);
                if !src.is_empty() {
                    out[$f] = out[$f].union(spread_masked::<H, N, CLIP>(src, dirs[$f], masks));
                }
            }
        };
    }
    facing!(0);
    facing!(1);
    facing!(2);
    facing!(3);
    out
}

impl Mover<'_> {
    /// Check one move from `from`: where it leads and what it costs. Inlined: checking a
    /// recorded movement asks once per step, and the call (its result passed through
    /// memory) cost about as much as the checks.
    #[inline]
    pub fn apply(&self, from: Place, m: Move) -> Result<(Place, u8), Refusal> {
        if self.stop.contains(from.at) {
            return Err(Refusal::Stopped(from.at));
        }
        match m {
            Move::Turn(t) => Ok((Place::new(from.at, from.facing.turned(t)), self.turn_cost)),
            Move::Step(r) => {
                if !self.steps.contains(&r) {
                    return Err(Refusal::NotAStep(r));
                }
                let (dx, dy) = from.facing.toward(r);
                let to = from.at.offset(dx, dy);
                if !self.board.contains(to) {
                    Err(Refusal::OffBoard(to))
                } else if !self.pass.contains(to) {
                    Err(Refusal::Blocked(to))
                } else {
                    Ok((Place::new(to, from.facing), 1))
                }
            }
            Move::Hop(r) => {
                if !self.steps.contains(&r) {
                    return Err(Refusal::NotAStep(r));
                }
                let (dx, dy) = from.facing.toward(r);
                let over = from.at.offset(dx, dy);
                let (Some(cost), true) = (self.hop_cost, self.hop_over.contains(over)) else {
                    return Err(Refusal::NoHop(over));
                };
                let to = from.at.offset(2 * dx, 2 * dy);
                if !self.board.contains(to) {
                    Err(Refusal::OffBoard(to))
                } else if !self.pass.contains(to) {
                    Err(Refusal::Blocked(to))
                } else {
                    Ok((Place::new(to, from.facing), cost))
                }
            }
        }
    }

    /// Every move that can be made from `from`, with where it leads and its cost.
    pub fn moves(&self, from: Place) -> impl Iterator<Item = (Move, Place, u8)> + '_ {
        let turns = Turn::ALL.iter().map(|&t| Move::Turn(t));
        let steps = self.steps.iter().flat_map(|&r| [Move::Step(r), Move::Hop(r)]);
        turns.chain(steps).filter_map(move |m| self.apply(from, m).ok().map(|(p, c)| (m, p, c)))
    }

    /// The largest cost of a single move.
    fn longest(&self) -> u8 {
        self.turn_cost.max(1).max(self.hop_cost.unwrap_or(1))
    }

    /// The cheapest cost of reaching each place from `start`, up to `bound`.
    pub fn from(&self, start: Place, bound: u8) -> Distances {
        let mut search = self.search(start, bound);
        self.go_on(&mut search, |_| false);
        search.dist
    }

    /// A search from `start`, up to `bound`, with only its first layer (cost 0) made: grown
    /// by [`Mover::go_on`] as far as its user needs, and no farther.
    pub fn search(&self, start: Place, bound: u8) -> Search {
        let mut search = Search::default();
        self.restart(&mut search, start, bound);
        search
    }

    /// As [`Mover::search`], made in the room of `search` (whatever it held before): its
    /// layers' memory is used again rather than freed and allocated anew (a Creature's
    /// checks begin a search for every activation).
    pub fn restart(&self, search: &mut Search, start: Place, bound: u8) {
        let mut first = [Cells::new(); 4];
        first[start.facing.index()].insert(start.at);
        let layers = &mut search.dist.layers;
        layers.clear();
        layers.reserve(usize::from(bound.min(24)) + 1);
        layers.push(first);
        (search.quiet, search.over, search.bound) = (0, bound == 0, bound);
    }

    /// Go on with `search` (one this mover began) a layer at a time until `enough` says the
    /// newest layer is enough (it is asked after each) or it is over: its bound reached, or
    /// no layer to come can grow. The layers are those [`Mover::from`] makes, however many
    /// times it stops and goes on.
    pub fn go_on(&self, search: &mut Search, enough: impl FnMut(&Places) -> bool) {
        if search.over {
            return;
        }
        // Every place of the layers made (not kept with the search: a reach is moved about
        // between the checks, and this is a few unions of its first layers).
        let mut seen = [Cells::new(); 4];
        for l in &search.dist.layers {
            for f in 0..4 {
                seen[f] = seen[f].union(l[f]);
            }
        }
        // Every place to come is one it may pass: the words that hold those and the places
        // made hold the whole search.
        if fields_of(&seen).union(self.pass).narrow() {
            self.go_on_in::<3, false>(search, rows_of(&seen), enough)
        } else {
            self.go_on_in::<4, true>(search, rows_of(&seen), enough)
        }
    }

    /// [`Mover::go_on`] on the first `N` words of every set, which hold `seen` (the places of
    /// the layers made) and every field it may pass (in the first 14 columns unless `CLIP`).
    fn go_on_in<const N: usize, const CLIP: bool>(
        &self,
        search: &mut Search,
        mut seen: [Rows<N>; 4],
        mut enough: impl FnMut(&Places) -> bool,
    ) {
        let pass = Rows::<N>::of(self.pass);
        let movable = pass.minus(Rows::of(self.stop));
        let hops = self.hop_cost.filter(|_| !self.hop_over.is_empty());
        let dirs = self.directions();
        // The hop masks only once a hop can be made: none can before a layer of its cost,
        // and a search within a small Speed, or stopped at a near goal, never gets there.
        let mut masks = None;
        let longest = self.longest();
        loop {
            let layers = &search.dist.layers;
            let k = layers.len();
            let mut new = [Rows::<N>::EMPTY; 4];
            if let Some(prev) = k.checked_sub(usize::from(self.turn_cost)).map(|j| &layers[j]) {
                // A turn keeps the field: each facing gets the fields the other three had.
                let turned = turned(prev, movable);
                for c in new.iter_mut() {
                    *c = c.union(turned);
                }
            }
            // Every step and hop lands on a field it may pass: the landings of one facing are
            // gathered first and cut down to those fields once ((a & p) | (b & p) is
            // (a | b) & p), not once per direction.
            let prev = &layers[k - 1];
            let hopped = hops.and_then(|h| k.checked_sub(usize::from(h))).map(|j| &layers[j]);
            if hopped.is_some() && masks.is_none() {
                masks = Some(self.hop_masks::<-1, N, CLIP>(dirs));
            }
            let landed = moves::<1, 2, N, CLIP>(dirs, prev, hopped.zip(masks.as_ref()), movable);
            for f in 0..4 {
                new[f] = new[f].union(landed[f].and(pass));
            }
            // A place stays in the first layer that has it.
            let mut any = false;
            for f in 0..4 {
                new[f] = new[f].minus(seen[f]);
                seen[f] = seen[f].union(new[f]);
                any |= !new[f].is_empty();
            }
            let new = places_of(&new);
            search.dist.layers.push(new);
            let stop = enough(&new);
            search.quiet = if any { 0 } else { search.quiet.saturating_add(1) };
            if k >= usize::from(search.bound) || search.quiet >= longest {
                // Over (no layer to come can grow from empty ones): trailing empty layers say
                // nothing.
                search.over = true;
                let layers = &mut search.dist.layers;
                while layers.len() > 1 && layers.last().is_some_and(|l| l.iter().all(Cells::is_empty)) {
                    layers.pop();
                }
                return;
            }
            if stop {
                return;
            }
        }
    }

    /// The cheapest cost from each place to some place `goal` accepts that the figure may
    /// end on, up to `bound`: the distances to the goal, for checking that a path is a
    /// shortest one and for walking one.
    pub fn to(&self, goal: impl Fn(Place) -> bool, bound: u8) -> Distances {
        let mut set = [Cells::new(); 4];
        for at in self.end.iter().filter(|p| self.board.contains(*p)) {
            for &f in Facing::ALL {
                if goal(Place::new(at, f)) {
                    set[f.index()].insert(at);
                }
            }
        }
        self.to_set(set, bound)
    }

    /// As [`Mover::to`], the goal given as a set of places.
    pub fn to_set(&self, goal: Places, bound: u8) -> Distances {
        self.to_set_until(goal, bound, None)
    }

    /// As [`Mover::to_set`], stopping once `until` is reached: every place no farther from
    /// the goal than it is then known (what checking a path from `until` needs).
    pub fn to_set_until(&self, goal: Places, bound: u8, until: Option<Place>) -> Distances {
        let found = |l: &[Places]| {
            until.is_some_and(|p| l.last().is_some_and(|l| l[p.facing.index()].contains(p.at)))
        };
        self.to_set_while(goal, bound, found)
    }

    /// As [`Mover::to_set`], stopping as soon as `done` says the layers made so far are
    /// enough (it is asked after each layer, the newest last).
    pub fn to_set_while(&self, goal: Places, bound: u8, done: impl FnMut(&[Places]) -> bool) -> Distances {
        let mut d = Distances::new();
        self.to_set_while_in(&mut d, goal, bound, done);
        d
    }

    /// As [`Mover::to_set_while`], made in the room of `d` (whatever it held before): its
    /// layers' memory is used again (a Creature's checks search back from a goal out of its
    /// reach in every activation that has one).
    pub fn to_set_while_in(
        &self,
        d: &mut Distances,
        goal: Places,
        bound: u8,
        done: impl FnMut(&[Places]) -> bool,
    ) {
        let first = goal.map(|c| c.and(self.end).and(self.pass));
        // Every place of the search is one it may pass (the goal cut down to them too).
        if self.pass.narrow() {
            self.to_set_in::<3, false>(d, first, bound, done)
        } else {
            self.to_set_in::<4, true>(d, first, bound, done)
        }
    }

    /// [`Mover::to_set_while`] on the first `N` words of every set, which hold every field it
    /// may pass (in the first 14 columns unless `CLIP`), from the goal `first` (cut down to
    /// them).
    fn to_set_in<const N: usize, const CLIP: bool>(
        &self,
        d: &mut Distances,
        first: Places,
        bound: u8,
        done: impl FnMut(&[Places]) -> bool,
    ) {
        let pass = Rows::<N>::of(self.pass);
        let movable = pass.minus(Rows::of(self.stop));
        let hops = self.hop_cost.filter(|_| !self.hop_over.is_empty());
        let dirs = self.directions();
        let masks = hops.map(|_| self.hop_masks::<1, N, CLIP>(dirs));
        self.layered(d, rows_of(&first), bound, done, |layers, k, new| {
            // The places one move before those of the layers already made.
            if let Some(prev) = k.checked_sub(usize::from(self.turn_cost)).map(|j| &layers[j]) {
                let turned = turned(prev, movable);
                for c in new.iter_mut() {
                    *c = c.union(turned);
                }
            }
            // As in `from`: the places a step or hop leaves from, gathered per facing and cut
            // down to the fields it may move on from once.
            let prev = &layers[k - 1];
            let hopped = hops.and_then(|h| k.checked_sub(usize::from(h))).map(|j| &layers[j]);
            let left = moves::<-1, -2, N, CLIP>(dirs, prev, hopped.zip(masks.as_ref()), pass);
            for f in 0..4 {
                new[f] = new[f].union(left[f].and(movable));
            }
        })
    }

    /// The fields that may be hopped over, moved `K` fields toward each world direction a
    /// step takes (1: the fields a hop in that direction leaves from, searching backward; -1:
    /// those it leaves from searching forward), by direction ([`spread_masked`]'s masks): the
    /// same for every layer of a search, so shifted once rather than once a layer.
    #[inline(always)]
    fn hop_masks<const K: i16, const N: usize, const CLIP: bool>(&self, dirs: [u8; 4]) -> [Rows<N>; 8] {
        let mut out = [Rows::EMPTY; 8];
        let any = dirs[0] | dirs[1] | dirs[2] | dirs[3];
        // On the search's words, each shift with its offset known to the compiler (through
        // `Cells::shifted`'s table they were calls). A field hopped over in a word after
        // them, or (unless `CLIP`) in the last two columns, lies between two fields there
        // too or next to one, and no hop leaves or lands on those; and what the shifts move
        // into the last two columns meets no place of the search.
        let over = if CLIP { self.hop_over } else { self.hop_over.and(Cells([!LAST_TWO_COLUMNS; 4])) };
        let over = Rows::<N>::of(over);
        macro_rules! toward {
            ($d:literal) => {
                if any & (1 << $d) != 0 {
                    out[$d] = shift_by::<N, CLIP>(over, NEAR[$d].0 * K, NEAR[$d].1 * K);
                }
            };
        }
        each_near!(toward);
        out
    }

    /// The world directions of the steps, per facing: bit `d` for [`NEAR`]`[d]`.
    /// Those facing north, turned for the others (each search asks: looking every step's
    /// direction up for each facing took ~100 instructions a search).
    fn directions(&self) -> [u8; 4] {
        let north = self.steps.iter().fold(0u8, |bits, &r| bits | 1 << clock(r));
        turning(north)
    }

    /// Layers of cost 0..=bound from `first`: `grow` adds to `new` the places one move from
    /// the layers made so far; a place stays in the first layer that has it. It stops early
    /// once `done` says the layers made so far are enough (asked after each layer). Every
    /// set on the first `N` words. Made in `d`, whatever it held before.
    fn layered<const N: usize>(
        &self,
        d: &mut Distances,
        first: [Rows<N>; 4],
        bound: u8,
        mut done: impl FnMut(&[Places]) -> bool,
        grow: impl Fn(&[Places], usize, &mut [Rows<N>; 4]),
    ) {
        // Room for 8 layers to start with: a backward search is bounded far out (a Creature's
        // goal out of its reach, 254) but rarely makes more than a few layers, and 1 KiB is
        // served from the allocator's cache of small blocks, where room for 25 was not.
        d.layers.clear();
        d.layers.reserve(usize::from(bound.min(7)) + 1);
        let mut seen = first;
        d.layers.push(places_of(&first));
        if done(&d.layers) {
            return;
        }
        let mut quiet = 0;
        for k in 1..=usize::from(bound) {
            let mut new = [Rows::EMPTY; 4];
            grow(&d.layers, k, &mut new);
            let mut any = false;
            for f in 0..4 {
                new[f] = new[f].minus(seen[f]);
                seen[f] = seen[f].union(new[f]);
                any |= !new[f].is_empty();
            }
            d.layers.push(places_of(&new));
            if done(&d.layers) {
                break;
            }
            quiet = if any { 0 } else { quiet + 1 };
            if quiet >= self.longest() {
                break; // no layer to come can grow from empty ones
            }
        }
        // Trailing empty layers say nothing.
        while d.layers.len() > 1 && d.layers.last().is_some_and(|l| l.iter().all(Cells::is_empty)) {
            d.layers.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::rng::SplitMix64;

    const WALK: &[Rel] = &[Rel::F, Rel::L, Rel::R];

    #[test]
    fn a_far_shift_moves_every_bit_as_one_at_a_time_would() {
        // The plain definition the word-wise shift must agree with.
        fn by_bits(a: [u64; 4], n: i32) -> [u64; 4] {
            let mut out = [0u64; 4];
            for from in 0..256i32 {
                let to = from + n;
                if (0..256).contains(&to) && a[from as usize / 64] & (1 << (from % 64)) != 0 {
                    out[to as usize / 64] |= 1 << (to % 64);
                }
            }
            out
        }
        let mut rng = SplitMix64::new(7);
        for _ in 0..50 {
            let a = [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()];
            for n in (-300..=300).filter(|n: &i32| n.abs() >= 64) {
                assert_eq!(shift_far(a, n), by_bits(a, n), "shift by {n} of {a:x?}");
            }
        }
    }

    const SWIFT: &[Rel] = &[Rel::F, Rel::L, Rel::R, Rel::Fl, Rel::Fr];

    fn mover(board: Board, blocked: &[(i16, i16)]) -> Mover<'static> {
        let mut pass = Cells::all(board);
        for &(x, y) in blocked {
            pass.remove(Pos::new(x, y));
        }
        Mover {
            board,
            steps: WALK,
            turn_cost: 1,
            hop_cost: None,
            pass,
            end: pass,
            hop_over: Cells::new(),
            stop: Cells::new(),
        }
    }

    /// The plain search the layered one must agree with: Dijkstra over the places, one move
    /// at a time through `apply`.
    fn reference(m: &Mover<'_>, start: Place, bound: u8) -> Vec<(Place, u8)> {
        let mut best: std::collections::BTreeMap<Place, u8> = Default::default();
        let mut queue = std::collections::BinaryHeap::new();
        best.insert(start, 0);
        queue.push(std::cmp::Reverse((0u8, start)));
        while let Some(std::cmp::Reverse((c, p))) = queue.pop() {
            if best.get(&p) != Some(&c) {
                continue;
            }
            for (_, q, k) in m.moves(p) {
                let nc = c + k;
                if nc <= bound && best.get(&q).is_none_or(|&b| nc < b) {
                    best.insert(q, nc);
                    queue.push(std::cmp::Reverse((nc, q)));
                }
            }
        }
        best.into_iter().collect()
    }

    #[test]
    fn cells_are_a_set_of_fields_and_shift_without_wrapping() {
        let mut c = Cells::new();
        c.insert(Pos::new(15, 15));
        c.insert(Pos::new(16, 0));
        assert!(c.contains(Pos::new(15, 15)) && !c.contains(Pos::new(16, 0)));
        assert!(!c.contains(Pos::new(-1, 0)));
        c.remove(Pos::new(15, 15));
        assert!(c.is_empty());
        let b = Board { width: 3, height: 2 };
        assert_eq!(Cells::all(b).count(), 6);
        assert_eq!(Cells::all(Board { width: 16, height: 16 }).count(), 256);
        let mut c = Cells::new();
        c.insert(Pos::new(15, 3));
        c.insert(Pos::new(0, 4));
        assert_eq!(c.shifted(1, 0).iter().collect::<Vec<_>>(), [Pos::new(1, 4)], "the east edge drops off");
        assert_eq!(c.shifted(-1, 0).iter().collect::<Vec<_>>(), [Pos::new(14, 3)], "the west edge drops off");
        assert_eq!(c.shifted(0, -4).iter().collect::<Vec<_>>(), [Pos::new(0, 0)]);
        assert_eq!(c.shifted(-2, 12).iter().collect::<Vec<_>>(), [Pos::new(13, 15)]);
        let all = Cells::all(Board { width: 16, height: 16 });
        assert_eq!(all.shifted(0, 5).count(), 16 * 11);
        assert_eq!(all.shifted(2, -1).count(), 14 * 15);
    }

    #[test]
    fn a_move_toward_a_neighbour_is_the_shift_by_its_offset() {
        let mut rng = SplitMix64::new(5);
        for _ in 0..20 {
            let c = Cells([rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()]);
            for (d, &(dx, dy)) in NEAR.iter().enumerate() {
                let d = d as u8;
                let r = Rows(c.0);
                assert_eq!(spread::<1, 4, true>(r, 1 << d).cells(), c.shifted(dx, dy), "step {d}");
                assert_eq!(spread::<-1, 4, true>(r, 1 << d).cells(), c.shifted(-dx, -dy), "back {d}");
                assert_eq!(spread::<2, 4, true>(r, 1 << d).cells(), c.shifted(2 * dx, 2 * dy), "hop {d}");
                assert_eq!(
                    spread::<-2, 4, true>(r, 1 << d).cells(),
                    c.shifted(-2 * dx, -2 * dy),
                    "hop back {d}"
                );
                // A set in the first 12 rows and 14 columns on three words, unclipped: the same
                // in those rows and columns.
                let narrow = Cells::all(Board { width: 14, height: 12 });
                let c = c.and(narrow);
                assert!(c.narrow());
                let r3 = Rows::<3>::of(c);
                for (k, (x, y)) in
                    [(1, (dx, dy)), (-1, (-dx, -dy)), (2, (2 * dx, 2 * dy)), (-2, (-2 * dx, -2 * dy))]
                {
                    let got = match k {
                        1 => spread::<1, 3, false>(r3, 1 << d),
                        -1 => spread::<-1, 3, false>(r3, 1 << d),
                        2 => spread::<2, 3, false>(r3, 1 << d),
                        _ => spread::<-2, 3, false>(r3, 1 << d),
                    };
                    assert_eq!(got.cells().and(narrow), c.shifted(x, y).and(narrow), "{k} toward {d}");
                }
            }
        }
        // The step sets compiled for are those of a walk and of Swift, turned with the facing.
        let walk = Mover { steps: WALK, ..mover(Board { width: 4, height: 4 }, &[]) };
        assert_eq!(walk.directions(), turning(FORWARD_SIDES));
        assert_eq!(Mover { steps: SWIFT, ..walk }.directions(), turning(FORWARD_SIDES_DIAGONALS));
        for &r in Rel::ALL {
            for (i, &f) in Facing::ALL.iter().enumerate() {
                assert_eq!(
                    NEAR[usize::from(turning(1 << clock(r))[i].trailing_zeros() as u8)],
                    f.toward(r),
                    "{r} facing {f}"
                );
            }
        }
    }

    #[test]
    fn a_shift_moves_each_field_on_its_own() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..20 {
            let mut c = Cells::new();
            for _ in 0..60 {
                c.insert(Pos::new((rng.next_u64() % 16) as i16, (rng.next_u64() % 16) as i16));
            }
            for dx in -16..=16 {
                for dy in -16..=16 {
                    let mut want = Cells::new();
                    for p in c.iter() {
                        want.insert(p.offset(dx, dy));
                    }
                    assert_eq!(c.shifted(dx, dy), want, "shifted by ({dx}, {dy})");
                }
            }
        }
    }

    #[test]
    fn a_square_is_every_field_that_near() {
        for (cx, cy) in [(0, 0), (5, 7), (15, 15), (-1, 3), (17, 2), (3, 20)] {
            for r in 0..20 {
                let c = Pos::new(cx, cy);
                let mut want = Cells::new();
                for p in (Board { width: 16, height: 16 }).fields() {
                    if p.distance(c) <= r as u32 {
                        want.insert(p);
                    }
                }
                assert_eq!(Cells::square(c, r), want, "around {c:?}, {r}");
            }
        }
    }

    #[test]
    fn moves_are_checked_one_at_a_time() {
        let m = mover(Board { width: 5, height: 5 }, &[(2, 3)]);
        let at = Place::new(Pos::new(2, 2), Facing::N);
        assert_eq!(m.apply(at, Move::Step(Rel::F)), Err(Refusal::Blocked(Pos::new(2, 3))));
        assert_eq!(m.apply(at, Move::Step(Rel::L)), Ok((Place::new(Pos::new(1, 2), Facing::N), 1)));
        assert_eq!(m.apply(at, Move::Step(Rel::Fl)), Err(Refusal::NotAStep(Rel::Fl)));
        assert_eq!(m.apply(at, Move::Hop(Rel::F)), Err(Refusal::NoHop(Pos::new(2, 3))));
        assert_eq!(m.apply(at, Move::Turn(Turn::About)), Ok((Place::new(Pos::new(2, 2), Facing::S), 1)));
        let edge = Place::new(Pos::new(0, 0), Facing::W);
        assert_eq!(m.apply(edge, Move::Step(Rel::F)), Err(Refusal::OffBoard(Pos::new(-1, 0))));
        assert_eq!(m.moves(at).count(), 5, "three turns, left and right");
    }

    #[test]
    fn walking_round_a_figure_costs_six_hunt_example_1() {
        // Fani (2,1) facing N wants the Back field (2,4) of the Golem at (2,3), facing S.
        let m = mover(Board { width: 6, height: 6 }, &[(2, 3)]);
        let from = m.from(Place::new(Pos::new(2, 1), Facing::N), 20);
        assert_eq!(from.get(Place::new(Pos::new(2, 4), Facing::S)), Some(6));
        let to = m.to(|p| p == Place::new(Pos::new(2, 4), Facing::S), 20);
        assert_eq!(to.get(Place::new(Pos::new(2, 1), Facing::N)), Some(6));
        // Forward and reverse agree everywhere.
        for (p, c) in from.reached() {
            let back = m.to(|q| q == p, 20);
            assert_eq!(back.get(Place::new(Pos::new(2, 1), Facing::N)), Some(c), "{p:?}");
        }
    }

    #[test]
    fn hops_cross_a_field_and_stops_end_the_move() {
        let mut m = mover(Board { width: 5, height: 5 }, &[(2, 2)]);
        m.hop_cost = Some(3);
        m.hop_over.insert(Pos::new(2, 2));
        let start = Place::new(Pos::new(2, 1), Facing::N);
        assert_eq!(m.apply(start, Move::Hop(Rel::F)), Ok((Place::new(Pos::new(2, 3), Facing::N), 3)));
        assert_eq!(m.from(start, 9).get(Place::new(Pos::new(2, 3), Facing::N)), Some(3));
        m.stop.insert(Pos::new(1, 1));
        let d = m.from(start, 20);
        assert_eq!(d.get(Place::new(Pos::new(1, 1), Facing::N)), Some(1));
        let stop = Place::new(Pos::new(1, 1), Facing::N);
        assert_eq!(m.apply(stop, Move::Turn(Turn::Left)), Err(Refusal::Stopped(Pos::new(1, 1))));
        // (0,1) is two side-steps away, but only through the stop field: the way round is longer.
        let beyond = Facing::ALL.iter().filter_map(|&f| d.get(Place::new(Pos::new(0, 1), f))).min();
        assert_eq!(beyond, Some(5));
        let to = m.to(|p| p.at == Pos::new(0, 1), 20);
        assert_eq!(to.get(start), beyond, "forward and reverse agree");
        let mut goal = [Cells::new(); 4];
        goal[0].insert(Pos::new(0, 1));
        assert_eq!(d.first_in(&goal), d.get(Place::new(Pos::new(0, 1), Facing::N)));
    }

    /// A random board of 4-15 fields a side, a fifth of them blocked, a tenth to hop over
    /// and a tenth that stop a move, and a mover over it (walking on even rounds, Swift on
    /// odd ones): the boards the property tests below search.
    fn random_mover(rng: &mut SplitMix64, round: u32, turn_cost: u8) -> Mover<'static> {
        let board = Board { width: 4 + rng.below(12) as i16, height: 4 + rng.below(12) as i16 };
        let all = Cells::all(board);
        let (mut blocked, mut over, mut stop) = (Cells::new(), Cells::new(), Cells::new());
        for p in all.iter() {
            match rng.below(10) {
                0 | 1 => blocked.insert(p),
                2 => over.insert(p),
                3 => stop.insert(p),
                _ => {}
            }
        }
        let pass = all.minus(blocked).minus(over);
        Mover {
            board,
            steps: if round % 2 == 0 { WALK } else { SWIFT },
            turn_cost,
            hop_cost: Some(3 + (round % 2) as u8),
            pass,
            end: pass.minus(stop),
            hop_over: over,
            stop,
        }
    }

    #[test]
    fn a_search_stopped_and_resumed_makes_the_same_layers() {
        let mut rng = SplitMix64::new(13);
        for round in 0..60 {
            let m = random_mover(&mut rng, round, 1 + (round % 3 == 2) as u8);
            let Some(at) = m.end.iter().nth(rng.below(m.pass.count() as usize)) else { continue };
            let start = Place::new(at, Facing::ALL[rng.below(4)]);
            let bound = rng.below(20) as u8;
            let full = m.from(start, bound);
            let mut s = m.search(start, bound);
            let mut made = 1;
            while !s.is_over() {
                // Stop after a random number of layers, then go on.
                let mut left = 1 + rng.below(3);
                m.go_on(&mut s, |_| {
                    left -= 1;
                    left == 0
                });
                assert!(s.distances().layers.len() > made || s.is_over(), "round {round}: no layer made");
                made = s.distances().layers.len();
                if !s.is_over() {
                    // The layers of the whole search, and empty ones where it had dropped its
                    // trailing empty layers (a search not over may end in some).
                    for (k, l) in s.distances().layers.iter().enumerate() {
                        let want = full.layers.get(k).copied().unwrap_or_default();
                        assert_eq!(*l, want, "round {round}: layer {k}");
                    }
                }
            }
            assert_eq!(s.distances().layers, full.layers, "round {round}: over");
            // Stopping at the first layer that meets a goal finds the cost `first_in` finds.
            let goal_at = m.pass.iter().nth(rng.below(m.pass.count() as usize)).unwrap_or(at);
            let mut goal = [Cells::new(); 4];
            goal[rng.below(4)].insert(goal_at);
            let mut s = m.search(start, bound);
            if s.distances().first_in(&goal).is_none() {
                m.go_on(&mut s, |l| (0..4).any(|f| !l[f].and(goal[f]).is_empty()));
            }
            assert_eq!(s.distances().first_in(&goal), full.first_in(&goal), "round {round}: nearest");
        }
    }

    #[test]
    fn the_layered_search_agrees_with_a_plain_one_on_random_boards() {
        let mut rng = SplitMix64::new(11);
        for round in 0..60 {
            let m = random_mover(&mut rng, round, 1);
            let Some(at) = m.end.iter().nth(rng.below(m.pass.count() as usize)) else { continue };
            let start = Place::new(at, Facing::ALL[rng.below(4)]);
            let bound = 2 + rng.below(20) as u8;
            let want = reference(&m, start, bound);
            let got: std::collections::BTreeMap<Place, u8> = m.from(start, bound).reached().collect();
            assert_eq!(got, want.into_iter().collect(), "round {round}: forward");
            // Reverse: the cost to a random goal place, from everywhere, as a forward search
            // from there finds it.
            let goal =
                Place::new(m.pass.iter().nth(rng.below(m.pass.count() as usize)).unwrap_or(at), Facing::N);
            let to = m.to(|p| p == goal, 40);
            for (p, c) in to.reached().take(40) {
                assert_eq!(m.from(p, 40).get(goal), Some(c), "round {round}: reverse at {p:?}");
            }
        }
    }
}

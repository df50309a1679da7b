//! Solving tables: retrograde analysis of one material and its mirror at a time, over the
//! moves of [`rules`].
//!
//! A quiet move from material `m` leads to `m.mirrored()` (the other side is then to move),
//! so the two are solved together as one graph. A capture or a promotion leads to a material
//! with fewer pieces or fewer men, which is solved before (the order of
//! [`Material::all_up_to`]) and looked up. Each position's moves are generated once: a move
//! into a solved material gives a value at once (the opponent lost there: a win here; drawn
//! there: this position cannot be lost), a move inside the pair becomes an edge. Then passes
//! over the undecided positions mark a win where some edge reaches a loss and a loss where
//! every edge reaches a win and nothing outside draws, until a pass changes nothing; what is
//! left undecided is a draw, since neither side can force an end from it.
//!
//! Then the distances ([`Graph::distances`]): level by level from the end of the game over
//! the won and lost positions, with the distances of the moves out of the pair read from
//! the materials they reach, so a distance runs across captures and promotions to the end.

use std::collections::HashMap;
use std::path::Path;

use rules::{Move, Variant};

use crate::file::{self, Fault, TableError};
use crate::index::{Index, canonical, position_of};
use crate::table::SATURATED;
use crate::{Egdb, Material, Table, Wdl};

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 3;
/// No distance (yet): no exit of that kind, or a position not yet given its distance.
const NONE: u16 = u16::MAX;

/// A build that could not be done.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The variant has no tables yet.
    #[error("no endgame tables for {0}: only russian is built")]
    UnsupportedVariant(Variant),
    /// A table could not be written.
    #[error(transparent)]
    Table(#[from] TableError),
    /// One material's graph has more positions than its edge numbers can name.
    #[error("{material} and its mirror have {positions} positions, more than a build handles")]
    TooLarge {
        /// The material.
        material: Material,
        /// Its positions with its mirror's.
        positions: u64,
    },
}

/// What solving one material found: printed as the build's progress.
#[derive(Debug, Clone, Copy)]
pub struct SliceReport {
    /// The material solved.
    pub material: Material,
    /// Its positions.
    pub positions: u64,
    /// Positions the side to move wins.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// Passes over the undecided positions of the material and its mirror.
    pub passes: u32,
    /// Passes over the won and lost positions that gave them their distances.
    pub levels: u32,
    /// The longest distance in plies of the material's positions.
    pub max_distance: u8,
    /// Whether some distance reached [`SATURATED`] and is only a lower bound.
    pub saturated: bool,
}

/// Solves materials in order, keeping every solved table for the next ones to look up.
#[derive(Debug)]
pub struct Builder {
    variant: Variant,
    tables: HashMap<Material, Table>,
}

impl Builder {
    /// A builder for `variant` (Russian only for now).
    pub fn new(variant: Variant) -> Result<Builder, BuildError> {
        if file::variant_code(variant).is_none() {
            return Err(BuildError::UnsupportedVariant(variant));
        }
        Ok(Builder {
            variant,
            tables: HashMap::new(),
        })
    }

    /// The solved table of a material, if solved.
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)
    }

    /// Solves `target` and every material it can reach, calling `on_table` with each new
    /// table and its report as it is solved.
    pub fn solve(
        &mut self,
        target: Material,
        on_table: &mut dyn FnMut(&Table, &SliceReport) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        let within = |x: Material, y: Material| {
            x.own_men <= y.own_men
                && x.own_men + x.own_kings <= y.own_men + y.own_kings
                && x.opp_men <= y.opp_men
                && x.opp_men + x.opp_kings <= y.opp_men + y.opp_kings
        };
        for m in Material::all_up_to(target.pieces()) {
            if (within(m, target) || within(m, target.mirrored())) && !self.tables.contains_key(&m)
            {
                self.solve_pair(m, on_table)?;
            }
        }
        Ok(())
    }

    /// Solves every material of up to `max_pieces` pieces.
    pub fn solve_all(
        &mut self,
        max_pieces: u32,
        on_table: &mut dyn FnMut(&Table, &SliceReport) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        for m in Material::all_up_to(max_pieces) {
            if !self.tables.contains_key(&m) {
                self.solve_pair(m, on_table)?;
            }
        }
        Ok(())
    }

    /// The solved tables as a database answering up to `max_pieces` pieces.
    pub fn into_egdb(self, max_pieces: u32) -> Egdb {
        Egdb::from_tables(self.variant, max_pieces, self.tables.into_values())
    }

    /// Every position of the pair with the values its moves out of the pair give at once,
    /// the distances those moves reach, and its moves inside the pair as edges.
    fn graph(
        &self,
        slices: &[Material],
        indexes: &[Index],
        offsets: &[u64],
        total: usize,
    ) -> Graph {
        let mut value = vec![UNKNOWN; total];
        let mut escape = vec![false; total];
        let mut exit_loss = vec![NONE; total];
        let mut exit_win = vec![NONE; total];
        let mut edge_start: Vec<usize> = Vec::with_capacity(total + 1);
        let mut edges: Vec<u32> = Vec::new();
        let mut moves: Vec<Move> = Vec::new();
        for (s, index) in indexes.iter().enumerate() {
            for i in 0..index.size() {
                let node = (offsets[s] + i) as usize;
                edge_start.push(edges.len());
                let pieces = index.pieces(i);
                let position = position_of(self.variant, &pieces)
                    .expect("every number of a perfect index is a legal position");
                position.legal_moves_into(&mut moves);
                let mark = edges.len();
                for mv in &moves {
                    let mut next = position;
                    next.play_unchecked(mv);
                    let after = canonical(&next);
                    let reached = after.material();
                    if reached.own_men + reached.own_kings == 0 {
                        // The game ends with this move: no win is shorter.
                        value[node] = WIN;
                        exit_loss[node] = 0;
                        break;
                    }
                    if let Some(k) = slices.iter().position(|&m| m == reached) {
                        edges.push((offsets[k] + indexes[k].index(&after)) as u32);
                        continue;
                    }
                    let table = self
                        .tables
                        .get(&reached)
                        .expect("materials are solved after everything they reach");
                    let distance = u16::from(
                        table
                            .distance_of(&after)
                            .expect("tables built here hold their distances"),
                    );
                    match table.value_of(&after) {
                        Wdl::Loss => {
                            value[node] = WIN;
                            if exit_loss[node] == NONE || distance < exit_loss[node] {
                                exit_loss[node] = distance;
                            }
                        }
                        Wdl::Draw => escape[node] = true,
                        Wdl::Win => {
                            if exit_win[node] == NONE || distance > exit_win[node] {
                                exit_win[node] = distance;
                            }
                        }
                    }
                }
                if exit_loss[node] == 0 {
                    // Already won in one ply: the moves inside the pair cannot shorten it.
                    edges.truncate(mark);
                }
            }
        }
        edge_start.push(edges.len());
        Graph {
            value,
            escape,
            exit_loss,
            exit_win,
            edge_start,
            edges,
        }
    }

    fn solve_pair(
        &mut self,
        material: Material,
        on_table: &mut dyn FnMut(&Table, &SliceReport) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        let mirror = material.mirrored();
        let slices: Vec<Material> = if mirror == material {
            vec![material]
        } else {
            vec![material, mirror]
        };
        let indexes: Vec<Index> = slices.iter().map(|&m| Index::new(m)).collect();
        let mut offsets = vec![0u64];
        for index in &indexes {
            offsets.push(offsets.last().copied().unwrap_or(0) + index.size());
        }
        let total = offsets[slices.len()];
        if total > u64::from(u32::MAX) {
            return Err(BuildError::TooLarge {
                material,
                positions: total,
            });
        }
        let total = total as usize;
        let mut graph = self.graph(&slices, &indexes, &offsets, total);
        let passes = graph.retrograde();
        let (distance, levels) = graph.distances();
        // The edges are the build's largest memory: gone before the tables are packed.
        let value = std::mem::take(&mut graph.value);
        drop(graph);
        for (s, &m) in slices.iter().enumerate() {
            let range = offsets[s] as usize..offsets[s + 1] as usize;
            let part = &value[range.clone()];
            let table = Table::from_values(
                self.variant,
                m,
                part.iter().map(|&v| match v {
                    WIN => Wdl::Win,
                    LOSS => Wdl::Loss,
                    // Undecided after the last pass: neither side can force an end.
                    _ => Wdl::Draw,
                }),
                distance[range]
                    .iter()
                    .map(|&d| {
                        if d == NONE {
                            0
                        } else {
                            d.min(u16::from(SATURATED)) as u8
                        }
                    })
                    .collect(),
            );
            let (wins, draws, losses) = table.counts();
            let report = SliceReport {
                material: m,
                positions: table.len(),
                wins,
                draws,
                losses,
                passes,
                levels,
                max_distance: table.max_distance(),
                saturated: table.saturated(),
            };
            on_table(&table, &report)?;
            self.tables.insert(m, table);
        }
        Ok(())
    }
}

/// One material and its mirror: each position's value so far, whether a move out of the
/// pair reaches a draw, the shortest loss and the longest win its moves out of the pair
/// reach (plies, [`NONE`] if none), and its moves inside the pair.
struct Graph {
    value: Vec<u8>,
    escape: Vec<bool>,
    exit_loss: Vec<u16>,
    exit_win: Vec<u16>,
    edge_start: Vec<usize>,
    edges: Vec<u32>,
}

impl Graph {
    /// Passes over the undecided positions until one changes nothing; returns their number.
    fn retrograde(&mut self) -> u32 {
        let Graph {
            value,
            escape,
            edge_start,
            edges,
            ..
        } = self;
        let mut open: Vec<u32> = (0..value.len() as u32)
            .filter(|&n| value[n as usize] == UNKNOWN)
            .collect();
        let mut passes = 0;
        loop {
            passes += 1;
            let before = open.len();
            open.retain(|&n| {
                let n = n as usize;
                let mut all_won = !escape[n];
                for &e in &edges[edge_start[n]..edge_start[n + 1]] {
                    match value[e as usize] {
                        LOSS => {
                            value[n] = WIN;
                            return false;
                        }
                        WIN => {}
                        _ => all_won = false,
                    }
                }
                if all_won {
                    value[n] = LOSS;
                }
                !all_won
            });
            if open.len() == before {
                return passes;
            }
        }
    }

    /// The distance of every won and lost position ([`NONE`] for draws) and the number of
    /// levels it took.
    ///
    /// Level `d` gives distance `d` to every position whose distance is `d`, knowing every
    /// shorter one: a win whose shortest move to a loss (inside the pair, or out of it) has
    /// distance `d - 1`, a loss whose moves all reach wins already given distances, the
    /// longest `d - 1`. Positions given `d` in the same level are not read as children
    /// (`< d`), so the order inside a level does not matter. The values of
    /// [`Graph::retrograde`] say which positions get a distance, so draws are never visited.
    fn distances(&self) -> (Vec<u16>, u32) {
        let Graph {
            value,
            exit_loss,
            exit_win,
            edge_start,
            edges,
            ..
        } = self;
        let mut distance = vec![NONE; value.len()];
        let mut open: Vec<u32> = (0..value.len() as u32)
            .filter(|&n| value[n as usize] != UNKNOWN)
            .collect();
        let longest_exit = open
            .iter()
            .flat_map(|&n| [exit_loss[n as usize], exit_win[n as usize]])
            .filter(|&x| x != NONE)
            .max()
            .unwrap_or(0);
        let mut d: u16 = 0;
        while !open.is_empty() {
            let before = open.len();
            open.retain(|&n| {
                let n = n as usize;
                let children = &edges[edge_start[n]..edge_start[n + 1]];
                let found = if value[n] == WIN {
                    let mut best = exit_loss[n];
                    for &e in children {
                        let (v, de) = (value[e as usize], distance[e as usize]);
                        if v == LOSS && de < d && (best == NONE || de < best) {
                            best = de;
                        }
                    }
                    (best != NONE && best < d).then(|| best + 1)
                } else {
                    // Without moves at all: lost at once, distance 0.
                    let mut longest = exit_win[n];
                    let mut all = longest == NONE || longest < d;
                    for &e in children {
                        let de = distance[e as usize];
                        if de >= d {
                            all = false;
                            break;
                        }
                        if longest == NONE || de > longest {
                            longest = de;
                        }
                    }
                    all.then(|| if longest == NONE { 0 } else { longest + 1 })
                };
                match found {
                    Some(found) => {
                        distance[n] = found;
                        false
                    }
                    None => true,
                }
            });
            assert!(
                open.len() < before || d <= longest_exit + 1,
                "a level gave no distance while positions wait for one: the values are wrong"
            );
            d += 1;
        }
        (distance, u32::from(d))
    }
}

/// Builds every table of `variant` with up to `max_pieces` pieces, writes each with its
/// distance file to `out` (when given) as soon as it is solved, and calls `progress` with each one's report.
pub fn build(
    variant: Variant,
    max_pieces: u32,
    out: Option<&Path>,
    progress: &mut dyn FnMut(&SliceReport),
) -> Result<Egdb, BuildError> {
    let mut builder = Builder::new(variant)?;
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(|e| TableError {
            path: dir.to_owned(),
            fault: Fault::Io(e),
        })?;
    }
    builder.solve_all(max_pieces, &mut |table, report| {
        if let Some(dir) = out {
            table.save(&dir.join(table.material().file_name(variant)))?;
            table.save_distances(&dir.join(table.material().distance_file_name(variant)))?;
        }
        progress(report);
        Ok(())
    })?;
    Ok(builder.into_egdb(max_pieces))
}

//! STUB (coordinator's, replaced by the stats helper's module on merge).
#![allow(dead_code, unused_variables)]

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alignment {
    NegativeRmse,
    Accuracy,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    pub humans: Vec<(usize, f64)>,
    pub judge: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AltTestOptions {
    pub epsilon: f64,
    pub q: f64,
    pub min_humans: usize,
    pub min_instances: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct HumanTest {
    pub human: usize,
    pub instances: usize,
    pub judge_advantage: f64,
    pub human_advantage: f64,
    pub t: f64,
    pub p: f64,
    pub p_adjusted: f64,
    pub rejected: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AltTest {
    pub tested: Vec<HumanTest>,
    pub skipped: Vec<(usize, usize)>,
    pub winning_rate: Option<f64>,
    pub advantage_probability: Option<f64>,
}

pub fn alt_test(instances: &[Instance], alignment: Alignment, options: &AltTestOptions) -> AltTest {
    AltTest {
        tested: Vec::new(),
        skipped: Vec::new(),
        winning_rate: None,
        advantage_probability: None,
    }
}

pub fn benjamini_yekutieli(p: &[f64]) -> Vec<f64> {
    p.to_vec()
}

#[derive(Debug, Clone, PartialEq)]
pub struct KendallTau {
    pub tau: f64,
    pub p_value: f64,
}

pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<KendallTau> {
    None
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ppi {
    pub estimate: f64,
    pub ci: (f64, f64),
    pub lambda: f64,
    pub human_only: f64,
    pub human_only_ci: (f64, f64),
    pub effective_gain: f64,
    pub n: usize,
    pub n_unlabeled: usize,
}

pub fn ppi_mean(y: &[f64], f: &[f64], f_unlabeled: &[f64], level: f64) -> Option<Ppi> {
    None
}

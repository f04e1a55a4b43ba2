//! The analysis plan's choices on the Analyse page: the same overrides as `juror analyze`'s
//! flags (`--unit`, `--standardise`, `--anchor`, `--pairs`, `--all-pairs`, `--alternative`, `--tests`,
//! `--correction`, `--family`, `--margin`, `--by-group`, `--by-intake`, `--models`, `--raters`,
//! `--bt-intervals`, `--ties`, `--sequential`), each defaulting to the
//! plan the study (or its key) pre-registers in its `analysis` section. Any change makes the
//! report exploratory, and the page says so.
//!
//! One small component per override; they share [`Field`] (a labelled control), and the
//! select-from-a-list ones [`Choice`] and the helpers that read the plan and write the override.

use juror_core::analysis::overrides::{
    Alternative, AnalysisPlan, Comparisons, Correction, Family, Overrides, Standardise, Test, Unit,
    parse_pairs,
};
use juror_core::analysis::run::PlanContext;
use juror_core::study::analysis_plan::{
    AnalysisModel, AnalysisModels, BtIntervals, RaterModel, RaterModels, Ties,
};
use leptos::prelude::*;

/// The plan's choices; `systems` are those an anchor or a pair may name (the study's or key's,
/// else the report's).
#[component]
pub fn AnalysisPlanChoices(
    context: Memo<PlanContext>,
    systems: Signal<Vec<String>>,
    overrides: RwSignal<Overrides>,
) -> impl IntoView {
    let pairs_text = RwSignal::new(String::new());
    let pairs_error: RwSignal<Option<String>> = RwSignal::new(None);
    let number_error: RwSignal<Option<String>> = RwSignal::new(None);
    let changed = move || overrides.with(|o| !o.is_empty());
    let reset = move |_| {
        overrides.set(Overrides::default());
        pairs_text.set(String::new());
        pairs_error.set(None);
        number_error.set(None);
    };
    view! {
        <details class="plan-choices">
            <summary>"Analysis plan"</summary>
            <PlanStatus context overrides />
            <div class="plan-grid">
                <UnitChoice context overrides />
                <StandardiseChoice context overrides />
                <ComparisonsChoice context systems overrides pairs_text pairs_error />
                <PairsInput overrides pairs_text pairs_error />
                <AlternativeChoice context overrides />
                <TestsChoice context overrides />
                <CorrectionChoice context overrides />
                <FamilyChoice context overrides />
                <ByGroupChoice context overrides />
                <ByIntakeChoice context overrides />
                <MarginInput overrides number_error />
                <SequentialInput overrides number_error />
                <ModelsChoice context overrides />
                <RatersChoice context overrides />
                <RankingsChoices context overrides />
            </div>
            {move || {
                let errors: Vec<String> = [pairs_error.get(), number_error.get()].into_iter().flatten().collect();
                (!errors.is_empty()).then(|| view! {
                    <p class="error" role="alert">{errors.join(" ")}</p>
                })
            }}
            <button type="button" class="secondary small" on:click=reset disabled=move || !changed()>
                "Back to the pre-registered plan"
            </button>
        </details>
    }
}

/// Whose plan the report follows: the study's, the key's or the default, or a changed one.
#[component]
fn PlanStatus(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    let status = move || {
        let source = context.with(|c| c.source);
        if overrides.with(|o| !o.is_empty()) {
            "Exploratory: the plan is changed here; the report says which parts.".to_owned()
        } else {
            match source {
                "study" => "Following the plan the study file pre-registers.".to_owned(),
                "key" => "Following the plan kept in the key.".to_owned(),
                _ => "Following the default plan (the study file has no analysis section)."
                    .to_owned(),
            }
        }
    };
    view! { <p class="plan-status" role="status">{status}</p> }
}

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/// A control of the plan's grid under its label.
#[component]
fn Field(label: &'static str, children: Children) -> impl IntoView {
    view! {
        <label>
            <span>{label}</span>
            {children()}
        </label>
    }
}

/// One choice: "As planned: …" (no override), then `options` (value, text).
#[component]
fn Choice(
    label: &'static str,
    planned: Signal<String>,
    options: Vec<(&'static str, &'static str)>,
    value: Signal<String>,
    on_change: Callback<String>,
) -> impl IntoView {
    view! {
        <Field label>
            <select prop:value=move || value.get() on:change:target=move |ev| on_change.run(ev.target().value())>
                <option value="">{move || format!("As planned: {}", planned.get())}</option>
                {options.into_iter().map(|(v, text)| view! { <option value=v>{text}</option> }).collect_view()}
            </select>
        </Field>
    }
}

/// What the pre-registered plan says, in words.
fn planned(
    context: Memo<PlanContext>,
    text: impl Fn(&AnalysisPlan) -> String + Send + Sync + 'static,
) -> Signal<String> {
    Signal::derive(move || context.with(|c| text(&c.base)))
}

/// The override's option value; empty when the plan is followed.
fn chosen(
    overrides: RwSignal<Overrides>,
    word: impl Fn(&Overrides) -> String + Send + Sync + 'static,
) -> Signal<String> {
    Signal::derive(move || overrides.with(|o| word(o)))
}

/// Sets the override from a chosen option value (empty: follow the plan).
fn choose(
    overrides: RwSignal<Overrides>,
    set: impl Fn(&mut Overrides, &str) + Send + Sync + 'static,
) -> Callback<String> {
    Callback::new(move |v: String| overrides.update(|o| set(o, &v)))
}

// ---------------------------------------------------------------------------------------------
// One component per override
// ---------------------------------------------------------------------------------------------

/// `--unit`: each item's mean or each annotator's mean.
#[component]
fn UnitChoice(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    view! {
        <Choice
            label="Unit of analysis"
            planned=planned(context, |p| unit_text(p.unit).to_owned())
            options=vec![("item", "Items (each item's mean)"), ("annotator", "Annotators (each annotator's mean)")]
            value=chosen(overrides, |o| o.unit.map_or("", unit_word).to_owned())
            on_change=choose(overrides, |o, v| o.unit = match v {
                "item" => Some(Unit::Item),
                "annotator" => Some(Unit::Annotator),
                _ => None,
            })
        />
    }
}

/// `--standardise`: raw scores, or each annotator's scores as z-scores.
#[component]
fn StandardiseChoice(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    let text = |z: Standardise| match z {
        Standardise::None => "raw scores",
        Standardise::Annotator => "z-scores per annotator",
    };
    view! {
        <Choice
            label="Standardise scores"
            planned=planned(context, move |p| text(p.standardise).to_owned())
            options=vec![("none", "Raw scores"), ("annotator", "Per annotator (z-scores)")]
            value=chosen(overrides, |o| match o.standardise {
                Some(Standardise::None) => "none",
                Some(Standardise::Annotator) => "annotator",
                None => "",
            }.to_owned())
            on_change=choose(overrides, |o, v| o.standardise = match v {
                "none" => Some(Standardise::None),
                "annotator" => Some(Standardise::Annotator),
                _ => None,
            })
        />
    }
}

/// `--models`: the crossed mixed model and the ordinal model beside the paired tests.
#[component]
fn ModelsChoice(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    const CHOICES: [(&str, &[AnalysisModel]); 4] = [
        ("none", &[]),
        ("crossed", &[AnalysisModel::Crossed]),
        ("ordinal", &[AnalysisModel::Ordinal]),
        ("both", &[AnalysisModel::Crossed, AnalysisModel::Ordinal]),
    ];
    let text = |m: AnalysisModels| match (
        m.contains(AnalysisModel::Crossed) || m.contains(AnalysisModel::CrossedMl),
        m.contains(AnalysisModel::Ordinal),
    ) {
        (false, false) => "none",
        (true, false) => "crossed random effects",
        (false, true) => "ordinal",
        (true, true) => "crossed random effects and ordinal",
    };
    view! {
        <Choice
            label="Models of the ratings"
            planned=planned(context, move |p| text(p.models).to_owned())
            options=vec![
                ("none", "None"),
                ("crossed", "Crossed random effects (annotators and items)"),
                ("ordinal", "Ordinal (proportional odds)"),
                ("both", "Both"),
            ]
            value=chosen(overrides, |o| {
                let asked = o.models.as_deref().map(AnalysisModels::of);
                CHOICES
                    .iter()
                    .find(|(_, m)| Some(AnalysisModels::of(m)) == asked)
                    .map_or("", |(w, _)| w)
                    .to_owned()
            })
            on_change=choose(overrides, |o, v| {
                o.models = CHOICES.iter().find(|(w, _)| *w == v).map(|(_, m)| m.to_vec());
            })
        />
    }
}

/// `--raters`: Dawid–Skene's accuracy and MACE's competence on every nominal answer.
#[component]
fn RatersChoice(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    const CHOICES: [(&str, &[RaterModel]); 4] = [
        ("none", &[]),
        ("dawid_skene", &[RaterModel::DawidSkene]),
        ("mace", &[RaterModel::Mace]),
        ("both", &[RaterModel::DawidSkene, RaterModel::Mace]),
    ];
    let text = |m: RaterModels| match (
        m.contains(RaterModel::DawidSkene),
        m.contains(RaterModel::Mace),
    ) {
        (false, false) => "none",
        (true, false) => "Dawid–Skene",
        (false, true) => "MACE",
        (true, true) => "Dawid–Skene and MACE",
    };
    view! {
        <Choice
            label="Rater quality"
            planned=planned(context, move |p| text(p.raters).to_owned())
            options=vec![
                ("none", "None"),
                ("dawid_skene", "Dawid–Skene (accuracy, consensus)"),
                ("mace", "MACE (competence)"),
                ("both", "Both"),
            ]
            value=chosen(overrides, |o| {
                let asked = o.raters.as_deref().map(RaterModels::of);
                CHOICES
                    .iter()
                    .find(|(_, m)| Some(RaterModels::of(m)) == asked)
                    .map_or("", |(w, _)| w)
                    .to_owned()
            })
            on_change=choose(overrides, |o, v| {
                o.raters = CHOICES.iter().find(|(w, _)| *w == v).map(|(_, m)| m.to_vec());
            })
        />
    }
}

/// `--bt-intervals` and `--ties`: the Bradley–Terry ratings' intervals and how the leaderboard
/// counts a tie.
#[component]
fn RankingsChoices(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    view! {
        <Choice
            label="Ranking intervals"
            planned=planned(context, |p| p.bt_intervals.word().to_owned())
            options=vec![
                ("both", "Sandwich and bootstrap"),
                ("sandwich", "Sandwich (leaderboard)"),
                ("bootstrap", "Bootstrap (strengths)"),
            ]
            value=chosen(overrides, |o| o.bt_intervals.map_or("", BtIntervals::word).to_owned())
            on_change=choose(overrides, |o, v| o.bt_intervals = BtIntervals::from_word(v))
        />
        <Choice
            label="Ties on the leaderboard"
            planned=planned(context, |p| p.ties.word().to_owned())
            options=vec![("halves", "Half a win each"), ("davidson", "Davidson's model")]
            value=chosen(overrides, |o| o.ties.map_or("", Ties::word).to_owned())
            on_change=choose(overrides, |o, v| o.ties = Ties::from_word(v))
        />
    }
}

/// The option value of the comparisons override: empty, `all`, `anchor:ID` or `pairs`.
fn comparisons_word(o: &Overrides) -> String {
    match &o.comparisons {
        None => String::new(),
        Some(Comparisons::All) => "all".to_owned(),
        Some(Comparisons::Anchor(a)) => format!("anchor:{a}"),
        Some(Comparisons::Pairs(_)) => "pairs".to_owned(),
    }
}

/// `--all-pairs`, `--anchor` or `--pairs`: every pair, one system against each other, or the
/// pairs written in [`PairsInput`] (which must be written first).
#[component]
fn ComparisonsChoice(
    context: Memo<PlanContext>,
    systems: Signal<Vec<String>>,
    overrides: RwSignal<Overrides>,
    pairs_text: RwSignal<String>,
    pairs_error: RwSignal<Option<String>>,
) -> impl IntoView {
    let set_comparisons = move |value: String| {
        pairs_error.set(None);
        let chosen = match value.as_str() {
            "" => None,
            "all" => Some(Comparisons::All),
            "pairs" => match parse_pairs(&pairs_text.get_untracked()) {
                Ok(pairs) => Some(Comparisons::Pairs(pairs)),
                Err(_) => {
                    // Wait for the pairs to be written.
                    pairs_error.set(Some("Write the pairs below, as A:B, C:D.".to_owned()));
                    return;
                }
            },
            other => other
                .strip_prefix("anchor:")
                .map(|a| Comparisons::Anchor(a.to_owned())),
        };
        overrides.update(|o| o.comparisons = chosen);
    };
    view! {
        <Field label="Comparisons">
            <select
                prop:value=move || overrides.with(comparisons_word)
                on:change:target=move |ev| set_comparisons(ev.target().value())
            >
                <option value="">{move || format!("As planned: {}", context.with(|c| comparisons_text(&c.base)))}</option>
                <option value="all">"Every pair of systems"</option>
                {move || systems.get().into_iter().map(|s| view! {
                    <option value=format!("anchor:{s}")>{format!("{s} against each other system")}</option>
                }).collect_view()}
                <option value="pairs">"These pairs…"</option>
            </select>
        </Field>
    }
}

/// The pairs of `--pairs` (A:B, C:D), shown once "These pairs…" is chosen.
#[component]
fn PairsInput(
    overrides: RwSignal<Overrides>,
    pairs_text: RwSignal<String>,
    pairs_error: RwSignal<Option<String>>,
) -> impl IntoView {
    let on_pairs = move |text: String| {
        pairs_text.set(text.clone());
        match parse_pairs(&text) {
            Ok(pairs) => {
                pairs_error.set(None);
                overrides.update(|o| o.comparisons = Some(Comparisons::Pairs(pairs)));
            }
            Err(message) => pairs_error.set(Some(format!("Pairs: {message}."))),
        }
    };
    view! {
        <Show when=move || overrides.with(comparisons_word) == "pairs" || pairs_error.with(Option::is_some)>
            <Field label="Pairs (A:B, C:D)">
                <input
                    type="text"
                    prop:value=move || pairs_text.get()
                    on:change:target=move |ev| on_pairs(ev.target().value())
                />
            </Field>
        </Show>
    }
}

/// `--alternative`: the direction of every test.
#[component]
fn AlternativeChoice(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    view! {
        <Choice
            label="Alternative (A relative to B)"
            planned=planned(context, |p| alternative_word(p.alternative).to_owned())
            options=vec![("two-sided", "Two-sided (A ≠ B)"), ("greater", "Greater (A > B)"), ("less", "Less (A < B)")]
            value=chosen(overrides, |o| o.alternative.map_or("", alternative_word).to_owned())
            on_change=choose(overrides, |o, v| o.alternative = match v {
                "two-sided" => Some(Alternative::TwoSided),
                "greater" => Some(Alternative::Greater),
                "less" => Some(Alternative::Less),
                _ => None,
            })
        />
    }
}

/// `--tests`: which tests run, the first one corrected.
#[component]
fn TestsChoice(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    view! {
        <Choice
            label="Tests (the first is corrected)"
            planned=planned(context, |p| tests_text(&p.tests))
            options=vec![("wilcoxon,t", "Wilcoxon, then t"), ("t,wilcoxon", "t, then Wilcoxon"), ("wilcoxon", "Wilcoxon only"), ("t", "t only")]
            value=chosen(overrides, |o| o.tests.as_deref().map_or(String::new(), tests_word))
            on_change=choose(overrides, |o, v| o.tests = (!v.is_empty()).then(|| {
                v.split(',').map(|t| if t == "t" { Test::T } else { Test::Wilcoxon }).collect()
            }))
        />
    }
}

/// `--correction`: the multiple-comparison correction.
#[component]
fn CorrectionChoice(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    view! {
        <Choice
            label="Correction"
            planned=planned(context, |p| correction_text(p.correction).to_owned())
            options=vec![("holm", "Holm"), ("bonferroni", "Bonferroni"), ("none", "None")]
            value=chosen(overrides, |o| o.correction.map_or("", correction_word).to_owned())
            on_change=choose(overrides, |o, v| o.correction = match v {
                "holm" => Some(Correction::Holm),
                "bonferroni" => Some(Correction::Bonferroni),
                "none" => Some(Correction::None),
                _ => None,
            })
        />
    }
}

/// `--family`: what the correction runs over.
#[component]
fn FamilyChoice(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    view! {
        <Choice
            label="Corrected over"
            planned=planned(context, |p| family_text(p.family).to_owned())
            options=vec![("plan", "The whole plan"), ("dimension", "Each dimension")]
            value=chosen(overrides, |o| o.family.map_or("", family_word).to_owned())
            on_change=choose(overrides, |o, v| o.family = match v {
                "plan" => Some(Family::Plan),
                "dimension" => Some(Family::Dimension),
                _ => None,
            })
        />
    }
}

/// `--by-group`: also report each dimension per item group.
#[component]
fn ByGroupChoice(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    view! {
        <Choice
            label="Per item group"
            planned=planned(context, |p| if p.by_group { "yes" } else { "no" }.to_owned())
            options=vec![("yes", "Yes"), ("no", "No")]
            value=chosen(overrides, |o| match o.by_group {
                Some(true) => "yes",
                Some(false) => "no",
                None => "",
            }.to_owned())
            on_change=choose(overrides, |o, v| o.by_group = match v {
                "yes" => Some(true),
                "no" => Some(false),
                _ => None,
            })
        />
    }
}

/// `--by-intake`: also report each dimension per answer to an intake question (shown only
/// when the study has intake questions).
#[component]
fn ByIntakeChoice(context: Memo<PlanContext>, overrides: RwSignal<Overrides>) -> impl IntoView {
    view! {
        <Show when=move || context.with(|c| !c.intake.is_empty())>
            <Field label="Per answer to an intake question">
                <select
                    prop:value=move || overrides.with(|o| o.by_intake.clone().unwrap_or_default())
                    on:change:target=move |ev| {
                        let v = ev.target().value();
                        overrides.update(|o| o.by_intake = (!v.is_empty()).then_some(v));
                    }
                >
                    <option value="">
                        {move || format!("As planned: {}", context.with(|c| c.base.by_intake.clone()).unwrap_or_else(|| "no".to_owned()))}
                    </option>
                    {move || context.with(|c| c.intake.clone()).into_iter().map(|q| view! {
                        <option value=q.clone()>{q.clone()}</option>
                    }).collect_view()}
                </select>
            </Field>
        </Show>
    }
}

/// `--margin`: a non-inferiority margin for every comparison; a text that is not a positive
/// number leaves the override as it was and says why in `number_error`.
#[component]
fn MarginInput(
    overrides: RwSignal<Overrides>,
    number_error: RwSignal<Option<String>>,
) -> impl IntoView {
    let on_margin = move |text: String| {
        let text = text.trim().to_owned();
        if text.is_empty() {
            number_error.set(None);
            overrides.update(|o| o.margin = None);
            return;
        }
        match text.parse::<f64>() {
            Ok(m) if m.is_finite() && m > 0.0 => {
                number_error.set(None);
                overrides.update(|o| o.margin = Some(m));
            }
            _ => number_error.set(Some(
                "Margin: give a positive number on the rating scale, such as 0.5.".to_owned(),
            )),
        }
    };
    view! {
        <Field label="Non-inferiority margin, every comparison">
            <input
                type="number"
                min="0"
                step="0.05"
                inputmode="decimal"
                placeholder="none"
                prop:value=move || overrides.with(|o| o.margin.map(|m| m.to_string()).unwrap_or_default())
                on:change:target=move |ev| on_margin(ev.target().value())
            />
        </Field>
    }
}

/// `--sequential`: the planned number of units of the anytime-valid confidence sequences; empty
/// for none. A text that is not a whole number of 1 or more says why in `number_error`.
#[component]
fn SequentialInput(
    overrides: RwSignal<Overrides>,
    number_error: RwSignal<Option<String>>,
) -> impl IntoView {
    let on_units = move |text: String| {
        let text = text.trim().to_owned();
        match text.parse::<u32>() {
            _ if text.is_empty() => {
                number_error.set(None);
                overrides.update(|o| o.sequential = None);
            }
            Ok(n) if n >= 1 => {
                number_error.set(None);
                overrides.update(|o| o.sequential = Some(n));
            }
            _ => number_error.set(Some(
                "Confidence sequences: give the planned number of units, a whole number such as 60."
                    .to_owned(),
            )),
        }
    };
    view! {
        <Field label="Anytime-valid intervals, planned units">
            <input
                type="number"
                min="1"
                step="1"
                inputmode="numeric"
                placeholder="none"
                prop:value=move || overrides.with(|o| o.sequential.map(|n| n.to_string()).unwrap_or_default())
                on:change:target=move |ev| on_units(ev.target().value())
            />
        </Field>
    }
}

// ---------------------------------------------------------------------------------------------
// Words: an option's value, and the plan in words
// ---------------------------------------------------------------------------------------------

fn unit_word(u: Unit) -> &'static str {
    match u {
        Unit::Item => "item",
        Unit::Annotator => "annotator",
    }
}

fn unit_text(u: Unit) -> &'static str {
    match u {
        Unit::Item => "items",
        Unit::Annotator => "annotators",
    }
}

fn alternative_word(a: Alternative) -> &'static str {
    match a {
        Alternative::TwoSided => "two-sided",
        Alternative::Greater => "greater",
        Alternative::Less => "less",
    }
}

fn tests_word(tests: &[Test]) -> String {
    let words: Vec<&str> = tests
        .iter()
        .map(|t| match t {
            Test::T => "t",
            Test::Wilcoxon => "wilcoxon",
        })
        .collect();
    words.join(",")
}

fn tests_text(tests: &[Test]) -> String {
    let words: Vec<&str> = tests
        .iter()
        .map(|t| match t {
            Test::T => "t",
            Test::Wilcoxon => "Wilcoxon",
        })
        .collect();
    words.join(", then ")
}

fn correction_word(c: Correction) -> &'static str {
    match c {
        Correction::Holm => "holm",
        Correction::Bonferroni => "bonferroni",
        Correction::None => "none",
    }
}

fn correction_text(c: Correction) -> &'static str {
    match c {
        Correction::Holm => "Holm",
        Correction::Bonferroni => "Bonferroni",
        Correction::None => "none",
    }
}

fn family_word(f: Family) -> &'static str {
    match f {
        Family::Plan => "plan",
        Family::Dimension => "dimension",
    }
}

fn family_text(f: Family) -> &'static str {
    match f {
        Family::Plan => "the whole plan",
        Family::Dimension => "each dimension",
    }
}

fn comparisons_text(plan: &AnalysisPlan) -> String {
    match &plan.comparisons {
        Comparisons::All => "every pair".to_owned(),
        Comparisons::Anchor(a) => format!("{a} against each other system"),
        Comparisons::Pairs(pairs) => {
            let list: Vec<String> = pairs.iter().map(|(a, b)| format!("{a}:{b}")).collect();
            list.join(", ")
        }
    }
}

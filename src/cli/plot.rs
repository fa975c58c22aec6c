//! The SVG line charts `simulate` writes: one per time series of the
//! library's [`TIME_SERIES`] (available tasks, restoring tasks, imbalance,
//! cumulative restored records) and the cumulative unavailability
//! (`smoothscale::sim::report::cumulative`), over simulated time, one line per strategy, both axes
//! labelled with their units and ticked. The unavailability chart's legend
//! gives each run's `unavailable_task_s.total` as `summary.json` and the
//! table print it (the metric record's exact decimal, not the sum of the
//! samples the line draws, which ends there within sampling error).
//!
//! Every chart marks the scenario's scripted events (a dashed grey line
//! with a short label, `scale-out +2`, `crash c3`) and the churn its seed
//! draws (a tick at the top with a letter), marks where a run stopped as
//! infeasible (a bold × where its line ends, and `(infeasible at 12m)` in
//! its legend entry), and names the scenario, the seed and the smoothscale
//! version in a footer. Strategies differ by colour (a colour-blind-safe
//! palette), line pattern and marker, fixed per strategy (`style`); the
//! axes, ticks and grid are solid.
//!
//! Every chart is always written, so the set of files is the same for
//! every scenario. A chart whose values are 0 throughout every run (the
//! input backlog of a scenario without `process_rate`, the replicas of one
//! without standbys or warm-ups) draws no lines: it says so in the middle
//! (`no input backlog in any run`, the series' `nothing`), over its axes,
//! events, legend and infeasible marks.
//!
//! To look at them, run `smoothscale simulate simulations/scale-out.toml
//! --out target/plot-preview` and open the SVG files.
//!
//! # No system fonts
//!
//! The charts are drawn with `plotters` built with `default-features = false`
//! and only `svg_backend` + `line_series`. Its default `ttf` feature would
//! pull in `font-kit`, which needs fontconfig/freetype at build time and finds
//! no font (and fails) on a machine without font packages. Without `ttf` (and
//! without `ab_glyph`) plotters falls back to its "naive" font module, which
//! only *estimates* text extents from the character count for layout, and the
//! SVG backend writes every label as an SVG `<text>` element with a generic
//! `sans-serif` family: the viewer that displays the SVG picks the glyphs.
//! So building and writing plots needs no font on the machine, and the bytes
//! written do not depend on which fonts are installed.
//!
//! # Renderers
//!
//! No element carries `opacity` (ImageMagick draws a `fill="none"` line
//! with `opacity="1"` as a filled polygon) and dashes are SVG's own
//! `stroke-dasharray`, so ImageMagick, librsvg and browsers draw the same.

mod markers;
mod style;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use smoothscale::sim::report::cumulative;
use smoothscale::sim::report::{Figures, TimeSeries, TIME_SERIES};
use smoothscale::sim::{Outcome, RunResult, Scenario};

pub(crate) use markers::short_time;
use markers::{ChurnMark, Marker, Placement};
use style::{Look, AXIS_WIDTH, EVENT_COLOR, EVENT_WIDTH, LINE_WIDTH};

/// One chart: the file it goes to and its SVG text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plot {
    /// File name inside the output directory (`availability.svg`).
    pub file_name: &'static str,
    /// The SVG document.
    pub svg: String,
}

/// A plotting failure (plotters' errors carry no data we could use).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot draw {file_name}: {message}")]
pub(crate) struct PlotError {
    /// The chart.
    pub file_name: &'static str,
    /// What plotters said.
    pub message: String,
}

/// What every chart of one `simulate` run shows besides the runs: where it
/// comes from (footer), how long the scenario is (the time axis), how many
/// tasks it has (for the unavailability) and its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Context {
    scenario: String,
    seed: u64,
    duration_ms: u64,
    total_tasks: u64,
    standbys_asked: bool,
    events: Vec<Marker>,
    churn: Vec<ChurnMark>,
}

impl Context {
    /// The context of `scenario` run with `seed`.
    pub(crate) fn of(scenario: &Scenario, seed: u64) -> Context {
        Context {
            scenario: scenario.name.clone(),
            seed,
            duration_ms: scenario.duration_ms,
            total_tasks: scenario.total_tasks(),
            standbys_asked: scenario.standbys_asked(),
            events: markers::scripted(scenario),
            churn: markers::churn(scenario, seed),
        }
    }

    /// The footer: scenario, seed, version.
    fn footer(&self) -> String {
        format!(
            "scenario {}, seed {}, smoothscale {}",
            self.scenario,
            self.seed,
            env!("CARGO_PKG_VERSION")
        )
    }
}

/// The size of every chart, in pixels.
const WIDTH: u32 = 960;
const HEIGHT: u32 = 560;
/// Width of the legend strip right of the chart.
const LEGEND_WIDTH: u32 = 200;
/// Height of the footer strip below the chart.
const FOOTER_HEIGHT: u32 = 22;
const FONT: &str = "sans-serif";

/// The chart files: one per entry of the library's [`TIME_SERIES`], in
/// that order, then the cumulative unavailability.
pub(crate) const PLOT_FILES: [&str; 7] = [
    "availability.svg",
    "restoring_tasks.svg",
    "imbalance.svg",
    "restored_records.svg",
    "backlog.svg",
    "max_replicas.svg",
    "unavailability.svg",
];

const _: () = assert!(PLOT_FILES.len() == TIME_SERIES.len() + 1);

/// One chart's data, whatever it plots.
struct Chart {
    /// What it shows (`available tasks`).
    title: &'static str,
    /// The y axis' description (`tasks with a running active`).
    label: &'static str,
    /// The unit; empty for a count of records. Records, and values in
    /// `unit` when `scaled`, count in thousands, millions or billions.
    unit: &'static str,
    /// Whether large values in `unit` are shown in thousands (millions, …).
    scaled: bool,
    /// What the chart says, centred, when every value of every run is 0.
    nothing: &'static str,
    /// One line per run, in run order.
    lines: Vec<Line>,
}

/// One run's line.
struct Line {
    /// The strategy's name, as the legend gives it.
    strategy: String,
    /// How its line is drawn.
    look: Look,
    /// (simulated ms, value).
    points: Vec<(u64, f64)>,
    /// When the run stopped as infeasible.
    stopped_ms: Option<u64>,
    /// Lines under its name in the legend.
    notes: Vec<String>,
}

impl Line {
    fn of(result: &RunResult, i: usize, points: Vec<(u64, f64)>) -> Line {
        let stopped_ms = match &result.outcome {
            Outcome::Completed => None,
            Outcome::Infeasible { at_ms, .. } => Some(at_ms.get()),
        };
        Line {
            strategy: result.strategy.clone(),
            look: Look::of(&result.strategy, i),
            points,
            stopped_ms,
            notes: stopped_ms
                .map(|at| format!("(infeasible at {})", markers::short_time(at)))
                .into_iter()
                .collect(),
        }
    }
}

/// Draws every chart for `results` (strategies in run order, the legend in
/// the same order). Runs without samples draw no line.
pub(crate) fn plots(context: &Context, results: &[RunResult]) -> Result<Vec<Plot>, PlotError> {
    let charts = TIME_SERIES
        .iter()
        .map(|series| series_chart(series, results))
        .chain([unavailability_chart(context, results)]);
    charts
        .zip(PLOT_FILES)
        .map(|(chart, file_name)| {
            draw(context, &chart)
                .map(|svg| Plot { file_name, svg })
                .map_err(|message| PlotError { file_name, message })
        })
        .collect()
}

/// The chart of one of the library's time series.
fn series_chart(series: &TimeSeries, results: &[RunResult]) -> Chart {
    let lines = results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let points = r
                .samples
                .iter()
                .map(|s| (s.t_ms.get(), (series.value)(s).to_f64()))
                .collect();
            Line::of(r, i, points)
        })
        .collect();
    Chart {
        title: series.title,
        label: series.label,
        unit: series.unit,
        scaled: false,
        nothing: series.nothing,
        lines,
    }
}

/// The cumulative unavailability chart; each legend entry gives the run's
/// total as `summary.json` and the table print it (the metric
/// [`cumulative::TOTAL`], which the line, summed from the samples, ends at
/// within sampling error).
fn unavailability_chart(context: &Context, results: &[RunResult]) -> Chart {
    let lines = results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let sums = cumulative::unavailable_so_far(context.total_tasks, &r.samples);
            let mut line = Line::of(r, i, sums.iter().map(|(t, f)| (*t, f.to_f64())).collect());
            let total = Figures::of(r, context.standbys_asked)[cumulative::TOTAL];
            let total = total.map_or_else(|| "-".to_string(), |t| t.to_string());
            line.notes
                .insert(0, format!("{total} {}", cumulative::UNIT));
            line
        })
        .collect();
    Chart {
        title: cumulative::TITLE,
        label: cumulative::LABEL,
        unit: cumulative::UNIT,
        scaled: true,
        nothing: cumulative::NOTHING,
        lines,
    }
}

/// The x axis: minutes for runs under two hours, hours beyond; it spans the
/// scenario (and any sample past it).
fn time_axis(context: &Context, chart: &Chart) -> (f64, &'static str, f64) {
    let last_ms = chart
        .lines
        .iter()
        .flat_map(|l| l.points.last().map(|p| p.0))
        .fold(context.duration_ms, u64::max);
    let (unit_ms, label) = if last_ms >= 2 * 3_600_000 {
        (3_600_000.0, "simulated time (h)")
    } else {
        (60_000.0, "simulated time (min)")
    };
    let end = (last_ms as f64 / unit_ms).max(1.0);
    (unit_ms, label, end)
}

/// A divisor that keeps tick labels short, and its name: records become
/// thousands, millions or billions of records.
fn magnitude(max: f64) -> (f64, &'static str) {
    if max >= 1e9 {
        (1e9, "billions")
    } else if max >= 1e6 {
        (1e6, "millions")
    } else if max >= 1e4 {
        (1e3, "thousands")
    } else {
        (1.0, "records")
    }
}

/// The divisor of the y values and the y axis' description.
fn y_axis(chart: &Chart, raw_max: f64) -> (f64, String) {
    let (divisor, name) = magnitude(raw_max);
    if chart.unit.is_empty() {
        (divisor, format!("{} ({name})", chart.label))
    } else if chart.scaled && divisor > 1.0 {
        (
            divisor,
            format!("{} ({name} of {})", chart.label, chart.unit),
        )
    } else {
        (1.0, format!("{} ({})", chart.label, chart.unit))
    }
}

/// Ticks on the x and y axes, at most.
const X_TICKS: usize = 10;
const Y_TICKS: usize = 8;

/// Digits after the point the tick labels on `[0, span]` need. Plotters puts
/// ticks at multiples of the finest step of 1, 2 or 5 × 10^e that gives at
/// most `ticks` of them; its labels need `-e` decimals when `e < 0`.
fn tick_decimals(span: f64, ticks: usize) -> usize {
    if !(span > 0.0 && span.is_finite()) {
        return 0;
    }
    // A finite positive span: its decimal exponent is within ±324.
    #[allow(clippy::cast_possible_truncation)]
    let top = span.log10().ceil() as i32;
    let mut finest = top;
    'search: for e in (-6..top).rev() {
        for m in [5.0, 2.0, 1.0] {
            let step = m * 10f64.powi(e);
            if (span / step + 1e-9).floor() + 1.0 > ticks as f64 {
                break 'search;
            }
            finest = e;
        }
    }
    usize::try_from(-finest).unwrap_or(0)
}

/// Markers on a line with `n` points, at most: enough to tell the line,
/// few enough to leave it readable.
const MARKERS_PER_LINE: usize = 8;

/// The indices of the points of line `i` of `lines` that carry its marker:
/// every `n / 8`-th, shifted per line so that coinciding lines show each
/// other's markers.
fn marked_points(n: usize, i: usize, lines: usize) -> impl Iterator<Item = usize> {
    let every = (n / MARKERS_PER_LINE).max(1);
    let offset = i * every / lines.max(1);
    (offset..n).step_by(every)
}

/// Pixels between two rows of event labels, and from the top to the first
/// row when churn ticks (and their letters) take the top.
const LABEL_ROW: i32 = 13;
const CHURN_BAND: i32 = 20;
/// Event labels' font size.
const LABEL_SIZE: u32 = 12;

/// The chart's coordinates: simulated time (axis unit) × value (scaled).
type Plot2d<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;
type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// How values map to the chart: the time unit, the value divisor and the
/// top of the y axis.
#[derive(Debug, Clone, Copy)]
struct Scale {
    unit_ms: f64,
    divisor: f64,
    y_end: f64,
}

impl Scale {
    fn x(self, ms: u64) -> f64 {
        ms as f64 / self.unit_ms
    }
}

fn draw(context: &Context, chart: &Chart) -> Result<String, String> {
    let (unit_ms, x_label, x_end) = time_axis(context, chart);
    let raw_max = chart
        .lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.1))
        .fold(0.0, f64::max);
    let (divisor, y_label) = y_axis(chart, raw_max);
    // Room at the top for event labels and churn ticks, above the lines.
    let headroom = match (context.events.is_empty(), context.churn.is_empty()) {
        (true, true) => 1.05,
        (false, true) | (true, false) => 1.15,
        (false, false) => 1.25,
    };
    let y_end = if raw_max > 0.0 {
        raw_max / divisor * headroom
    } else {
        1.0
    };
    let scale = Scale {
        unit_ms,
        divisor,
        y_end,
    };
    let x_decimals = tick_decimals(x_end, X_TICKS);
    let y_decimals = tick_decimals(y_end, Y_TICKS);
    let x_format = move |v: &f64| format!("{v:.x_decimals$}");
    let y_format = move |v: &f64| format!("{v:.y_decimals$}");

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        let failed = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(failed)?;
        let (body, footer) = root.split_vertically(HEIGHT - FOOTER_HEIGHT);
        let (plot_area, legend_area) = body.split_horizontally(WIDTH - LEGEND_WIDTH);
        let mut plot = ChartBuilder::on(&plot_area)
            .caption(format!("{}: {}", context.scenario, chart.title), (FONT, 22))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(0.0..x_end, 0.0..y_end)
            .map_err(failed)?;
        plot.configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .x_labels(X_TICKS)
            .y_labels(Y_TICKS)
            .x_label_formatter(&x_format)
            .y_label_formatter(&y_format)
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 15))
            .axis_style(BLACK.stroke_width(AXIS_WIDTH))
            .bold_line_style(RGBColor(225, 225, 225))
            .light_line_style(RGBColor(245, 245, 245))
            .draw()
            .map_err(failed)?;
        event_lines(&mut plot, context, scale).map_err(failed)?;
        // All 0: lines along the x axis would look like an empty chart.
        let empty = raw_max <= 0.0;
        if empty {
            nothing(&mut plot, chart.nothing, scale, x_end).map_err(failed)?;
        }
        run_lines(&mut plot, &chart.lines, scale, !empty).map_err(failed)?;
        event_marks(&mut plot, context, scale).map_err(failed)?;
        legend(&legend_area, context, &chart.lines).map_err(failed)?;
        footer
            .draw(&Text::new(
                context.footer(),
                (12, i32::try_from(FOOTER_HEIGHT / 2).unwrap_or(11)),
                TextStyle::from((FONT, 12).into_font())
                    .color(&RGBColor(0x66, 0x66, 0x66))
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    let looks: Vec<Look> = chart.lines.iter().map(|l| l.look).collect();
    Ok(style::dash_lines(svg, &looks))
}

/// The vertical lines of the events, under the runs' lines: light grey for
/// churn, dashed dark grey for scripted events.
fn event_lines<DB: DrawingBackend>(
    plot: &mut Plot2d<DB>,
    context: &Context,
    scale: Scale,
) -> Drawn<DB> {
    let vertical = |ms: u64| [(scale.x(ms), 0.0), (scale.x(ms), scale.y_end)];
    let churn_color = RGBColor(0xBB, 0xBB, 0xBB);
    plot.draw_series(
        context
            .churn
            .iter()
            .map(|m| PathElement::new(vertical(m.at_ms), churn_color.stroke_width(1))),
    )?;
    plot.draw_series(
        context
            .events
            .iter()
            .map(|e| PathElement::new(vertical(e.at_ms), EVENT_COLOR.stroke_width(EVENT_WIDTH))),
    )?;
    Ok(())
}

/// Each run's line with its markers (when `with_lines`; a chart with
/// nothing to show has none), and a bold × labelled `infeasible` where an
/// infeasible run stopped (at its last value).
fn run_lines<DB: DrawingBackend>(
    plot: &mut Plot2d<DB>,
    lines: &[Line],
    scale: Scale,
    with_lines: bool,
) -> Drawn<DB> {
    for (i, line) in lines.iter().enumerate() {
        let points: Vec<(f64, f64)> = line
            .points
            .iter()
            .map(|&(t, v)| (scale.x(t), v / scale.divisor))
            .collect();
        let look = line.look;
        let fill = look.color.filled();
        if with_lines {
            plot.draw_series(LineSeries::new(
                points.iter().copied(),
                look.color.stroke_width(LINE_WIDTH),
            ))?;
            plot.draw_series(
                marked_points(points.len(), i, lines.len()).map(|k| {
                    EmptyElement::at(points[k]) + Polygon::new(look.shape.outline(), fill)
                }),
            )?;
        }
        if let Some(at) = line.stopped_ms {
            let y = points.last().map_or(0.0, |p| p.1);
            let cross = Polygon::new(style::stop_outline(), fill);
            let text = TextStyle::from((FONT, 12).into_font())
                .color(&look.color)
                .pos(Pos::new(HPos::Left, VPos::Bottom));
            // Runs that stopped at the same time stack their labels.
            let before = lines[..i]
                .iter()
                .filter(|l| l.stopped_ms == Some(at))
                .count();
            let dy = -7 - 13 * i32::try_from(before).unwrap_or(0);
            let label = Text::new("infeasible", (8, dy), text);
            plot.draw_series([EmptyElement::at((scale.x(at), y)) + cross + label])?;
        }
    }
    Ok(())
}

/// The message of a chart whose values are all 0 (or that has none), in
/// the middle of the plot, where the lines would be.
fn nothing<DB: DrawingBackend>(
    plot: &mut Plot2d<DB>,
    message: &str,
    scale: Scale,
    x_end: f64,
) -> Drawn<DB> {
    let style = TextStyle::from((FONT, 18).into_font())
        .color(&RGBColor(0x44, 0x44, 0x44))
        .pos(Pos::new(HPos::Center, VPos::Center));
    let middle = (x_end / 2.0, scale.y_end / 2.0);
    plot.draw_series([EmptyElement::at(middle) + Text::new(message.to_string(), (0, 0), style)])?;
    Ok(())
}

/// Over the lines, at the top: a tick with a letter per churn event (a
/// letter only where it does not run into the one before), and the labels
/// of the scripted events in rows below (`markers::place_labels`).
fn event_marks<DB: DrawingBackend>(
    plot: &mut Plot2d<DB>,
    context: &Context,
    scale: Scale,
) -> Drawn<DB> {
    let top = |ms: u64| (scale.x(ms), scale.y_end);
    let pixel_x = |plot: &Plot2d<DB>, ms: u64| plot.backend_coord(&top(ms)).0;
    let letter_style = TextStyle::from((FONT, 11).into_font())
        .color(&EVENT_COLOR)
        .pos(Pos::new(HPos::Center, VPos::Top));
    let mut last_letter: Option<i32> = None;
    for mark in &context.churn {
        let tick = Polygon::new(vec![(-4, 0), (4, 0), (0, 6)], EVENT_COLOR.filled());
        plot.draw_series([EmptyElement::at(top(mark.at_ms)) + tick])?;
        let px = pixel_x(plot, mark.at_ms);
        if last_letter.is_none_or(|x| px - x >= 9) {
            last_letter = Some(px);
            let letter = Text::new(mark.letter.to_string(), (0, 7), letter_style.clone());
            plot.draw_series([EmptyElement::at(top(mark.at_ms)) + letter])?;
        }
    }
    let right = plot.plotting_area().get_pixel_range().0.end;
    let wanted: Vec<(i32, i32)> = context
        .events
        .iter()
        .map(|e| {
            (
                pixel_x(plot, e.at_ms),
                markers::text_width(&e.label, LABEL_SIZE),
            )
        })
        .collect();
    let first_row = if context.churn.is_empty() {
        3
    } else {
        CHURN_BAND
    };
    for (event, placement) in context
        .events
        .iter()
        .zip(markers::place_labels(&wanted, right))
    {
        let Some(Placement { row, leftward }) = placement else {
            continue;
        };
        let (h, dx) = if leftward {
            (HPos::Right, -4)
        } else {
            (HPos::Left, 4)
        };
        let dy = first_row + LABEL_ROW * i32::try_from(row).unwrap_or(0);
        let style = TextStyle::from((FONT, LABEL_SIZE).into_font())
            .color(&EVENT_COLOR)
            .pos(Pos::new(h, VPos::Top));
        let label = Text::new(event.label.clone(), (dx, dy), style);
        plot.draw_series([EmptyElement::at(top(event.at_ms)) + label])?;
    }
    Ok(())
}

/// One entry per strategy (a sample of its line with its marker, its name
/// and its notes), then what the event marks mean.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    context: &Context,
    lines: &[Line],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let left = Pos::new(HPos::Left, VPos::Center);
    let bold = TextStyle::from((FONT, 15).into_font().style(FontStyle::Bold)).pos(left);
    let name_style = TextStyle::from((FONT, 14).into_font()).pos(left);
    let note_style = TextStyle::from((FONT, 12).into_font())
        .color(&RGBColor(0x44, 0x44, 0x44))
        .pos(left);
    let mut y = 52;
    area.draw(&Text::new("strategy", (8, y), bold.clone()))?;
    y += 26;
    for line in lines {
        let look = line.look;
        area.draw(&PathElement::new(
            [(8, y), (44, y)],
            look.color.stroke_width(LINE_WIDTH),
        ))?;
        area.draw(
            &(EmptyElement::at((26, y)) + Polygon::new(look.shape.outline(), look.color.filled())),
        )?;
        area.draw(&Text::new(
            line.strategy.clone(),
            (52, y),
            name_style.clone(),
        ))?;
        for note in &line.notes {
            y += 15;
            area.draw(&Text::new(note.clone(), (52, y), note_style.clone()))?;
        }
        y += 21;
    }
    if context.events.is_empty() && context.churn.is_empty() {
        return Ok(());
    }
    y += 6;
    area.draw(&Text::new("events", (8, y), bold))?;
    y += 24;
    if !context.events.is_empty() {
        area.draw(&PathElement::new(
            [(26, y - 9), (26, y + 9)],
            EVENT_COLOR.stroke_width(EVENT_WIDTH),
        ))?;
        area.draw(&Text::new("scripted", (52, y), name_style.clone()))?;
        y += 24;
    }
    if !context.churn.is_empty() {
        area.draw(&Polygon::new(
            vec![(22, y - 7), (30, y - 7), (26, y - 1)],
            EVENT_COLOR.filled(),
        ))?;
        area.draw(&Text::new(
            format!("churn ({} drawn)", context.churn.len()),
            (52, y),
            name_style,
        ))?;
        y += 15;
        area.draw(&Text::new(markers::CHURN_KEY, (8, y), note_style))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use smoothscale::sim::{Millis, Records, RunMetrics, Sample, SimTime};

    fn run(name: &str, slope: u64, points: u64, every_ms: u64) -> RunResult {
        RunResult {
            strategy: name.to_string(),
            metrics: RunMetrics::default(),
            samples: (0..points)
                .map(|i| Sample {
                    t_ms: SimTime::new(i * every_ms),
                    available_tasks_milli: (48 - (i * slope) % 7) * 1000,
                    restoring_tasks_milli: (i * slope) % 7 * 1000,
                    imbalance_milli: (i % 3) * 500,
                    max_replicas_per_client: i % 4,
                    backlog_records: i * 10,
                    restored_records: Records::new(i * slope * 1_000_000),
                })
                .collect(),
            outcome: Outcome::Completed,
            stateful_tasks: 24,
            covered_ms: Millis::new(points * every_ms),
        }
    }

    fn context(name: &str, duration_ms: u64) -> Context {
        Context {
            scenario: name.to_string(),
            seed: 7,
            duration_ms,
            total_tasks: 48,
            standbys_asked: true,
            events: Vec::new(),
            churn: Vec::new(),
        }
    }

    fn sample_runs() -> Vec<RunResult> {
        let mut infeasible = run("heron-ffd", 3, 40, 60_000);
        infeasible.outcome = Outcome::Infeasible {
            at_ms: SimTime::new(40 * 60_000 + 5_000),
            message: "no room".to_string(),
        };
        vec![
            run("kip441", 1, 61, 60_000),
            run("sticky", 2, 61, 60_000),
            infeasible,
        ]
    }

    #[test]
    fn charts_with_lines_axes_legend_and_footer() {
        let plots = plots(&context("scale-out", 3_600_000), &sample_runs()).unwrap();
        let names: Vec<&str> = plots.iter().map(|p| p.file_name).collect();
        assert_eq!(names, PLOT_FILES);
        for plot in &plots {
            let svg = &plot.svg;
            assert!(svg.starts_with("<svg"), "{}", plot.file_name);
            assert!(svg.trim_end().ends_with("</svg>"), "{}", plot.file_name);
            assert!(svg.matches("<polyline").count() >= 3, "{}", plot.file_name);
            // sticky and heron-ffd are dashed, line and legend sample.
            let sticky = Look::of("sticky", 0).dash.unwrap();
            let ffd = Look::of("heron-ffd", 0).dash.unwrap();
            assert_eq!(
                svg.matches(&format!("stroke-dasharray=\"{sticky}\""))
                    .count(),
                2
            );
            assert_eq!(
                svg.matches(&format!("stroke-dasharray=\"{ffd}\"")).count(),
                2
            );
            assert!(svg.contains("simulated time (min)"));
            for name in ["kip441", "sticky", "heron-ffd"] {
                assert!(svg.contains(&format!("{name}\n</text>")), "{name}");
            }
            assert!(svg.contains("(infeasible at 40m5s)\n</text>"));
            assert_eq!(svg.matches(">\ninfeasible\n</text>").count(), 1);
            assert!(svg.contains("scale-out: "));
            assert!(svg.contains(&format!(
                "scenario scale-out, seed 7, smoothscale {}\n</text>",
                env!("CARGO_PKG_VERSION")
            )));
            // Labels are plain SVG text with a generic family: no font embedded.
            assert!(svg.contains("font-family=\"sans-serif\""));
            // ImageMagick's renderer fills a `fill="none"` polyline that
            // also carries `opacity`: every line would draw as a black
            // polygon. Opacity 1 is SVG's default, so none is written.
            assert!(!svg.contains("opacity"), "{}", plot.file_name);
        }
        assert!(plots[0].svg.contains("(tasks)"));
        assert!(plots[2].svg.contains("(tasks/thread)"));
        // 180 million records at most: the axis counts millions.
        assert!(plots[3].svg.contains("records restored so far (millions)"));
        assert!(plots[6].svg.contains("so far (thousands of task-s)"));
    }

    /// The opening tags of `svg`'s lines (`<line`, `<polyline`).
    fn line_tags(svg: &str) -> Vec<&str> {
        svg.split('<')
            .filter(|t| t.starts_with("line ") || t.starts_with("polyline "))
            .map(|t| &t[..t.find('>').unwrap_or(t.len())])
            .collect()
    }

    /// Every registered strategy's line is dashed in its pattern (its line
    /// and its legend sample, nothing else); the axes and ticks, black like
    /// the last strategy, and the grid are solid.
    #[test]
    fn axes_and_ticks_are_solid_in_every_strategys_company() {
        let runs: Vec<RunResult> = smoothscale::assignor::names()
            .iter()
            .zip(1..)
            .map(|(name, slope)| run(name, slope, 61, 60_000))
            .collect();
        let mut context = context("all", 3_600_000);
        context.events = vec![Marker {
            at_ms: 600_000,
            label: "scale-out +2".to_string(),
        }];
        for plot in plots(&context, &runs).unwrap() {
            let tags = line_tags(&plot.svg);
            let axis = format!("stroke=\"#000000\" stroke-width=\"{AXIS_WIDTH}\"");
            let axes: Vec<&&str> = tags.iter().filter(|t| t.contains(&axis)).collect();
            // Two axes and their ticks.
            assert!(axes.len() >= 4, "{}: {axes:?}", plot.file_name);
            for tag in &tags {
                if !tag.contains("stroke-dasharray") {
                    continue;
                }
                let RGBColor(r, g, b) = EVENT_COLOR;
                let event = format!("stroke=\"#{r:02X}{g:02X}{b:02X}\"");
                let line = format!("stroke-width=\"{LINE_WIDTH}\"");
                assert!(
                    tag.contains(&line) || tag.contains(&event),
                    "{}: a dashed line that is neither a strategy's nor an event's: {tag}",
                    plot.file_name
                );
            }
            for name in smoothscale::assignor::names() {
                let Some(dash) = Look::of(name, 0).dash else {
                    continue;
                };
                let dashed = format!("stroke-dasharray=\"{dash}\"");
                assert_eq!(
                    tags.iter().filter(|t| t.contains(&dashed)).count(),
                    2,
                    "{}: {name}",
                    plot.file_name
                );
            }
        }
    }

    /// The text of every `<text>` element of `svg`, in document order.
    fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                let body = &t[t.find('>')? + 1..];
                Some(body[..body.find("</text>")?].trim())
            })
            .collect()
    }

    /// The value of `"total"` under `"unavailable_task_s"` of `strategy` in
    /// the text of a `summary.json`, as written.
    fn summary_total<'a>(summary: &'a str, strategy: &str) -> &'a str {
        let at = summary.find(&format!("\"{strategy}\": {{")).unwrap();
        let block = &summary[at..];
        let block = &block[block.find("\"unavailable_task_s\": {").unwrap()..];
        let value = &block[block.find("\"total\": ").unwrap() + "\"total\": ".len()..];
        value[..value.find(['\n', ',']).unwrap()].trim()
    }

    /// The legend gives each run's total as `summary.json` writes it, not
    /// the sum of the samples (which the line ends at within sampling
    /// error): the fixture's samples sum to 45 task-s, its metric says
    /// 12.350.
    #[test]
    fn the_unavailability_legend_gives_each_total_as_summary_json_does() {
        use crate::cli::outputs::fixtures::{completed, infeasible, info};
        let results = [completed(), infeasible()];
        let mut context = context("tiny", 120_000);
        context.total_tasks = 6;
        let svg = &plots(&context, &results).unwrap()[6].svg;
        let summary = smoothscale::sim::documents::summary_json(&info(), &results);
        let texts = texts(svg);
        for r in &results {
            let total = summary_total(&summary, &r.strategy);
            let at = texts.iter().position(|t| *t == r.strategy).unwrap();
            assert_eq!(texts[at + 1], format!("{total} task-s"), "{svg}");
        }
        assert!(texts.contains(&"12.350 task-s"), "{texts:?}");
        assert!(texts.contains(&"0.000 task-s"), "{texts:?}");
    }

    #[test]
    fn events_and_churn_are_marked() {
        let mut context = context("events", 3_600_000);
        context.events = vec![
            Marker {
                at_ms: 600_000,
                label: "scale-out +2".to_string(),
            },
            Marker {
                at_ms: 610_000,
                label: "crash c3".to_string(),
            },
        ];
        context.churn = vec![ChurnMark {
            at_ms: 1_200_000,
            letter: 'C',
        }];
        let plots = plots(&context, &sample_runs()).unwrap();
        for plot in &plots {
            assert!(
                plot.svg.contains("scale-out +2\n</text>"),
                "{}",
                plot.file_name
            );
            assert!(plot.svg.contains("crash c3\n</text>"), "{}", plot.file_name);
            assert!(plot.svg.contains(">\nC\n</text>") || plot.svg.contains("C\n</text>"));
            assert!(plot.svg.contains("churn (1 drawn)\n</text>"));
            // Two dashed event lines and the legend's sample.
            assert_eq!(plot.svg.matches("stroke-dasharray=\"4 3\"").count(), 3);
        }
    }

    #[test]
    fn long_runs_use_hours() {
        let runs = vec![run("kip441", 1, 9, 3_600_000)];
        let plots = plots(&context("long", 8 * 3_600_000), &runs).unwrap();
        assert!(plots[0].svg.contains("simulated time (h)"));
    }

    #[test]
    fn plots_are_deterministic() {
        let context = context("x", 3_600_000);
        assert_eq!(
            plots(&context, &sample_runs()).unwrap(),
            plots(&context, &sample_runs()).unwrap()
        );
    }

    #[test]
    fn runs_without_samples_still_draw_axes() {
        let mut empty = run("kip441", 1, 0, 60_000);
        empty.samples.clear();
        let plots = plots(&context("empty", 60_000), &[empty]).unwrap();
        let messages = TIME_SERIES
            .iter()
            .map(|s| s.nothing)
            .chain([cumulative::NOTHING]);
        for (plot, message) in plots.iter().zip(messages) {
            assert!(plot.svg.starts_with("<svg"));
            assert!(plot.svg.contains("simulated time (min)"));
            assert!(texts(&plot.svg).contains(&message), "{}", plot.file_name);
        }
    }

    /// A chart whose values are all 0 says so in the middle instead of
    /// drawing lines along the x axis; it keeps its axes, its legend and an
    /// infeasible run's mark. Charts with data carry no such message.
    #[test]
    fn a_chart_of_zeros_says_so() {
        let mut runs = sample_runs();
        for r in &mut runs {
            for s in &mut r.samples {
                s.backlog_records = 0;
            }
        }
        let plots = plots(&context("calm", 3_600_000), &runs).unwrap();
        let backlog = &plots[4];
        assert_eq!(backlog.file_name, "backlog.svg");
        let said = texts(&backlog.svg);
        assert!(said.contains(&"no input backlog in any run"), "{said:?}");
        for name in ["kip441", "sticky", "heron-ffd"] {
            assert!(said.contains(&name), "{name}: {said:?}");
        }
        assert_eq!(said.iter().filter(|t| **t == "infeasible").count(), 1);
        // The legend's samples are the only lines at a strategy's width.
        let width = format!("stroke-width=\"{LINE_WIDTH}\"");
        assert_eq!(backlog.svg.matches(&width).count(), runs.len());
        assert!(backlog.svg.contains("(records)"));
        for (plot, series) in plots.iter().zip(&TIME_SERIES) {
            if plot.file_name != "backlog.svg" {
                assert!(!plot.svg.contains(series.nothing), "{}", plot.file_name);
                assert!(plot.svg.matches(&width).count() > runs.len());
            }
        }
        assert!(!plots[6].svg.contains(cumulative::NOTHING));
    }

    #[test]
    fn markers_are_spread_and_staggered() {
        let first: Vec<usize> = marked_points(61, 0, 3).collect();
        let second: Vec<usize> = marked_points(61, 1, 3).collect();
        assert_eq!(first, [0, 7, 14, 21, 28, 35, 42, 49, 56]);
        assert_eq!(second[0], 2);
        assert_eq!(marked_points(3, 2, 9).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(marked_points(0, 0, 1).count(), 0);
    }

    #[test]
    fn helpers() {
        // 0..6.3 with 8 ticks: step 1. 0..1.05: step 0.2. 0..60 with 10: step 10.
        assert_eq!(tick_decimals(6.3, 8), 0);
        assert_eq!(tick_decimals(1.05, 8), 1);
        assert_eq!(tick_decimals(60.0, 10), 0);
        // 0..1 with 10 ticks: step 0.2 (0.1 would give 11). 0..0.3: step 0.05.
        assert_eq!(tick_decimals(1.0, 10), 1);
        assert_eq!(tick_decimals(0.3, 8), 2);
        assert_eq!(tick_decimals(0.0, 8), 0);
        assert_eq!(magnitude(5e9).1, "billions");
        assert_eq!(magnitude(5e6).1, "millions");
        assert_eq!(magnitude(5e4).1, "thousands");
        assert_eq!(magnitude(500.0).1, "records");
    }
}

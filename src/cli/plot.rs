//! The four SVG line charts `simulate` writes from the runs' time series
//! (`RunResult::samples`): available tasks, restoring tasks, imbalance and
//! cumulative restored records over simulated time, one line per strategy,
//! a legend, both axes labelled with their units and ticked.
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
//! The legend is drawn by hand in a strip right of the chart, so it never
//! covers a line. Strategies differ by colour and by line pattern (solid, then
//! dashes), so lines that coincide, as they often do, stay visible.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use smoothscale::sim::report::{TimeSeries, TIME_SERIES};
use smoothscale::sim::{RunResult, Sample};

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

const WIDTH: u32 = 960;
const HEIGHT: u32 = 540;
/// Width of the legend strip right of the chart.
const LEGEND_WIDTH: u32 = 170;
const FONT: &str = "sans-serif";

/// Tableau's ten colours: distinguishable, and readable on white.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Line patterns, cycled with the colours: solid, then dashes of (dash, gap)
/// pixels, so that strategies whose lines coincide all stay visible.
const DASHES: [Option<(u32, u32)>; 4] = [None, Some((10, 5)), Some((3, 4)), Some((6, 3))];

/// The chart files, one per entry of the library's [`TIME_SERIES`], in
/// that order.
pub(crate) const PLOT_FILES: [&str; 5] = [
    "availability.svg",
    "restoring_tasks.svg",
    "imbalance.svg",
    "restored_records.svg",
    "max_replicas.svg",
];

/// Draws the charts for `results` (strategies in run order, the
/// legend in the same order). Runs without samples draw no line.
pub(crate) fn plots(scenario: &str, results: &[RunResult]) -> Result<Vec<Plot>, PlotError> {
    TIME_SERIES
        .iter()
        .zip(PLOT_FILES)
        .map(|(series, file_name)| {
            chart(scenario, series, results)
                .map(|svg| Plot { file_name, svg })
                .map_err(|message| PlotError { file_name, message })
        })
        .collect()
}

/// The x axis: minutes for runs under two hours, hours beyond.
fn time_axis(results: &[RunResult]) -> (f64, &'static str, f64) {
    let last_ms = results
        .iter()
        .flat_map(|r| r.samples.last())
        .map(|s| s.t_ms.get())
        .max()
        .unwrap_or(0);
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

/// The value of `sample` in `series`, as a float for drawing.
fn value(series: &TimeSeries, sample: &Sample) -> f64 {
    (series.value)(sample).to_f64()
}

fn chart(scenario: &str, series: &TimeSeries, results: &[RunResult]) -> Result<String, String> {
    let (unit_ms, x_label, x_end) = time_axis(results);
    let raw_max = results
        .iter()
        .flat_map(|r| r.samples.iter().map(|s| value(series, s)))
        .fold(0.0, f64::max);
    // Records count in thousands, millions or billions on the axis.
    let (divisor, y_label) = if series.unit.is_empty() {
        let (divisor, name) = magnitude(raw_max);
        (divisor, format!("{} ({name})", series.label))
    } else {
        (1.0, format!("{} ({})", series.label, series.unit))
    };
    let y_end = if raw_max > 0.0 {
        raw_max / divisor * 1.05
    } else {
        1.0
    };
    let x_decimals = tick_decimals(x_end, X_TICKS);
    let y_decimals = tick_decimals(y_end, Y_TICKS);
    let x_format = move |v: &f64| format!("{v:.x_decimals$}");
    let y_format = move |v: &f64| format!("{v:.y_decimals$}");

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (plot_area, legend_area) = root.split_horizontally(WIDTH - LEGEND_WIDTH);
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(format!("{scenario}: {}", series.title), (FONT, 22))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(0.0..x_end, 0.0..y_end)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .x_labels(X_TICKS)
            .y_labels(Y_TICKS)
            .x_label_formatter(&x_format)
            .y_label_formatter(&y_format)
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 15))
            .bold_line_style(RGBColor(225, 225, 225))
            .light_line_style(RGBColor(245, 245, 245))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, result) in results.iter().enumerate() {
            let color = series_color(i);
            let points = result
                .samples
                .iter()
                .map(|s| (s.t_ms.get() as f64 / unit_ms, value(series, s) / divisor));
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)))
                .map_err(|e| e.to_string())?;
        }
        legend(&legend_area, results).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    // Plotters writes `opacity="1"` (the default) after `fill="none"` on every
    // line, which ImageMagick draws as a filled polygon: leave it out.
    Ok(dash_lines(svg, results.len()).replace(" opacity=\"1\"", ""))
}

/// The colour of the `i`-th strategy: Tableau's ten, then the same darkened
/// (by 30 % per round), so every strategy's colour is its own.
fn series_color(i: usize) -> RGBColor {
    let RGBColor(r, g, b) = PALETTE[i % PALETTE.len()];
    let round = u32::try_from(i / PALETTE.len()).map_or(3, |r| r.min(3));
    let dark = |c: u8| u8::try_from(u32::from(c) * (10 - 3 * round) / 10).unwrap_or(u8::MAX);
    RGBColor(dark(r), dark(g), dark(b))
}

/// Gives the lines (and legend entries) of every strategy but the first of
/// each four its dash pattern. Plotters has no dashed stroke style (its
/// dashed series draws every dash as an element of its own, hundreds of
/// kilobytes per chart), so SVG's own `stroke-dasharray` is added to the
/// polylines drawn in the strategy's colour, which no other element uses.
fn dash_lines(mut svg: String, strategies: usize) -> String {
    for i in 0..strategies {
        if let Some((dash, gap)) = DASHES[i % DASHES.len()] {
            let RGBColor(r, g, b) = series_color(i);
            let stroke = format!("stroke=\"#{r:02X}{g:02X}{b:02X}\" stroke-width=");
            let dashed = format!(
                "stroke=\"#{r:02X}{g:02X}{b:02X}\" stroke-dasharray=\"{dash} {gap}\" stroke-width="
            );
            svg = svg.replace(&stroke, &dashed);
        }
    }
    svg
}

/// One entry per strategy: a short line in its colour and its name.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &[RunResult],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let left = Pos::new(HPos::Left, VPos::Center);
    area.draw(&Text::new(
        "strategy",
        (8, 60),
        TextStyle::from((FONT, 15).into_font().style(FontStyle::Bold)).pos(left),
    ))?;
    for (i, result) in results.iter().enumerate() {
        let y = 86 + 24 * i32::try_from(i).unwrap_or(i32::MAX / 48);
        area.draw(&PathElement::new(
            [(8, y), (38, y)],
            series_color(i).stroke_width(3),
        ))?;
        area.draw(&Text::new(
            result.strategy.clone(),
            (44, y),
            TextStyle::from((FONT, 14).into_font()).pos(left),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use smoothscale::sim::{Millis, Outcome, Records, RunMetrics, SimTime};

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
                    restored_records: Records::new(i * slope * 1_000_000),
                })
                .collect(),
            outcome: Outcome::Completed,
            stateful_tasks: 24,
            covered_ms: Millis::new(points * every_ms),
        }
    }

    fn sample_runs() -> Vec<RunResult> {
        vec![
            run("kip441", 1, 61, 60_000),
            run("sticky", 2, 61, 60_000),
            run("heron-rr", 3, 40, 60_000),
        ]
    }

    #[test]
    fn four_charts_with_lines_axes_and_legend() {
        let plots = plots("scale-out", &sample_runs()).unwrap();
        let names: Vec<&str> = plots.iter().map(|p| p.file_name).collect();
        assert_eq!(names, PLOT_FILES);
        for plot in &plots {
            let svg = &plot.svg;
            assert!(svg.starts_with("<svg"), "{}", plot.file_name);
            assert!(svg.trim_end().ends_with("</svg>"), "{}", plot.file_name);
            assert!(svg.matches("<polyline").count() >= 3, "{}", plot.file_name);
            // The second and third strategies are dashed, lines and legend.
            assert_eq!(svg.matches("stroke-dasharray=\"10 5\"").count(), 2);
            assert_eq!(svg.matches("stroke-dasharray=\"3 4\"").count(), 2);
            assert!(svg.contains("simulated time (min)"));
            for name in ["kip441", "sticky", "heron-rr"] {
                assert!(svg.contains(&format!("{name}\n</text>")), "{name}");
            }
            assert!(svg.contains("scale-out: "));
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
    }

    #[test]
    fn long_runs_use_hours() {
        let runs = vec![run("kip441", 1, 9, 3_600_000)];
        let plots = plots("long", &runs).unwrap();
        assert!(plots[0].svg.contains("simulated time (h)"));
    }

    #[test]
    fn plots_are_deterministic() {
        assert_eq!(
            plots("x", &sample_runs()).unwrap(),
            plots("x", &sample_runs()).unwrap()
        );
    }

    #[test]
    fn runs_without_samples_still_draw_axes() {
        let mut empty = run("kip441", 1, 0, 60_000);
        empty.samples.clear();
        let plots = plots("empty", &[empty]).unwrap();
        for plot in plots {
            assert!(plot.svg.starts_with("<svg"));
            assert!(plot.svg.contains("simulated time (min)"));
        }
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

"""Generate the built-in React prompt corpus (data/prompts.jsonl) deterministically.

Requests are composed in our own words from app categories x subjects x feature pairs, the kind
of thing people ask a web-app generator for. Every (category, subject, feature pair) occurs at
most once, so all requests are distinct. Run ``python -m bot_repro.tasks.react.build_corpus``
to rewrite the file; the output is byte-identical for the same code.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
from pathlib import Path

OUT = Path(__file__).with_name("data") / "prompts.jsonl"
PAIRS_PER_CELL = 4

# (short name, who it is for, what it tracks, a number it cares about)
SUBJECTS = [
    ("bakery", "a neighbourhood bakery", "orders", "loaves sold per day"),
    ("library", "a small public library", "book loans", "overdue loans"),
    ("gym", "a boutique fitness studio", "class bookings", "attendance per class"),
    ("clinic", "a family veterinary clinic", "appointments", "patients seen this week"),
    ("garden", "a community garden", "plot assignments", "kilos of produce harvested"),
    ("bikeshop", "a bicycle repair shop", "repair tickets", "average repair time"),
    ("school", "a primary school class", "homework assignments", "completion rate"),
    ("coffee", "a coffee roastery", "bean batches", "kilos roasted per week"),
    ("hotel", "a twelve-room seaside hotel", "reservations", "occupancy rate"),
    ("shelter", "an animal shelter", "adoption requests", "animals in care"),
    ("band", "an indie band on tour", "gig dates", "tickets sold"),
    ("podcast", "a weekly podcast", "episodes", "downloads per episode"),
    ("farm", "a dairy farm", "milk collections", "litres per cow"),
    ("museum", "a city history museum", "guided tours", "visitors per day"),
    ("coworking", "a coworking space", "desk bookings", "desk utilisation"),
    ("charity", "a food bank charity", "donations", "meals delivered"),
    ("florist", "a florist", "bouquet orders", "stems in stock"),
    ("dentist", "a dental practice", "check-ups", "no-show rate"),
    ("theatre", "an amateur theatre group", "rehearsals", "seats booked"),
    ("brewery", "a craft brewery", "brew batches", "litres in the tanks"),
    ("climbing", "a climbing gym", "route setups", "climbs logged"),
    ("bookshop", "an independent bookshop", "stock items", "books sold this month"),
    ("cinema", "a one-screen cinema", "screenings", "tickets per screening"),
    ("sailing", "a sailing club", "boat rentals", "hours on the water"),
    ("recipes", "a home cook", "recipes", "calories per serving"),
    ("travel", "a backpacker planning a trip", "itinerary stops", "daily budget"),
    ("budget", "a student managing money", "expenses", "money left this month"),
    ("plants", "a houseplant collector", "plants", "days since last watering"),
    ("running", "an amateur runner", "training runs", "weekly distance"),
    ("startup", "a two-person software startup", "support tickets", "monthly recurring revenue"),
    ("weather", "a hobby weather station", "readings", "rainfall this week"),
    ("language", "someone learning Spanish", "vocabulary cards", "words learned"),
]

OPENERS = ["Build", "Create", "Make", "Design", "Write", "I need", "Put together", "Code up"]

# category -> (request templates, features). Templates use {who}, {things}, {number}.
CATEGORIES: dict[str, tuple[list[str], list[str]]] = {
    "dashboard": (
        ["an admin dashboard for {who} that summarises {things} and {number}",
         "an overview screen for {who} showing today's {things} and {number}"],
        ["Add four summary cards with up or down trend arrows.",
         "Include a bar chart drawn with plain divs or SVG.",
         "Let the user filter by week, month or year.",
         "Add a sidebar with navigation links.",
         "Show a table of the latest entries with a status badge on each row.",
         "Add a dark mode toggle in the header.",
         "Highlight any value below a threshold the user can type in."],
    ),
    "form": (
        ["a form for {who} to record new {things}",
         "a sign-up form for {who} that also asks about {number}"],
        ["Validate every field as the user types and show inline errors.",
         "Split the form into three steps with a progress indicator.",
         "Disable the submit button until the form is valid.",
         "Show a summary of the entered data after submitting.",
         "Add a date picker built from plain inputs.",
         "Let the user add and remove repeated rows of fields.",
         "Remember the draft in local storage so a reload keeps it."],
    ),
    "widget": (
        ["an interactive widget for {who} to browse {things}",
         "a small tool for {who} to sort and search {things}"],
        ["Support drag-free reordering with up and down buttons.",
         "Add tabs for different groups of entries.",
         "Open a modal with details when an entry is clicked.",
         "Add a search box that filters as you type.",
         "Let the user mark favourites with a star.",
         "Add keyboard shortcuts for next and previous.",
         "Show a toast message after each change."],
    ),
    "visualisation": (
        ["a data visualisation for {who} of {number} over time",
         "a chart page for {who} comparing {things} across categories"],
        ["Draw a line chart in SVG with labelled axes.",
         "Add a tooltip that follows the mouse over data points.",
         "Let the user toggle each data series on and off.",
         "Include a pie or donut chart built with SVG arcs.",
         "Add a slider that changes the time window shown.",
         "Show the minimum, maximum and average next to the chart.",
         "Use generated sample data so the chart is never empty."],
    ),
    "game": (
        ["a casual browser game themed around {who}",
         "a quick puzzle game for {who} using their {things} as pieces"],
        ["Keep score and show a best score.",
         "Add a countdown timer that ends the round.",
         "Include a restart button and a short how-to-play note.",
         "Make the difficulty selectable: easy, normal or hard.",
         "Animate correct moves with a short colour flash.",
         "Support both mouse clicks and arrow keys.",
         "Show a win screen with the number of moves used."],
    ),
    "landing": (
        ["a landing page for {who}",
         "a one-page marketing site for {who} that mentions their {things}"],
        ["Include a hero section with a clear call to action.",
         "Add a three-column features section with icons made from emoji.",
         "Add a pricing section with three plans and a monthly/yearly switch.",
         "Include a testimonials carousel.",
         "Add a frequently asked questions accordion.",
         "Include a newsletter sign-up box with email validation.",
         "Make the navigation bar sticky with smooth scrolling links."],
    ),
    "tool": (
        ["a calculator-style tool for {who} that works out {number}",
         "a planner for {who} to schedule {things}"],
        ["Show the result update live as inputs change.",
         "Let the user save results to a list and clear it.",
         "Add unit or currency switching.",
         "Include a weekly calendar grid.",
         "Export the current list as text the user can copy.",
         "Add undo for the last change.",
         "Show a warning when inputs are out of a sensible range."],
    ),
    "productivity": (
        ["a task board for {who} to manage {things}",
         "a checklist app for {who} to keep track of {things}"],
        ["Use columns for to do, in progress and done.",
         "Add due dates and sort by the nearest one.",
         "Let the user tag items with colours and filter by tag.",
         "Show a progress bar of completed items.",
         "Allow editing an item in place by double-clicking it.",
         "Add a counter of overdue items in the header.",
         "Group items by person responsible."],
    ),
}


def build_rows(seed: int = 0) -> list[dict[str, str]]:
    rng = random.Random(seed)
    rows = []
    for category, (templates, features) in CATEGORIES.items():
        for short, who, things, number in SUBJECTS:
            pairs = list(itertools.combinations(range(len(features)), 2))
            for k, (a, b) in enumerate(rng.sample(pairs, PAIRS_PER_CELL)):
                opener = rng.choice(OPENERS)
                what = templates[k % len(templates)].format(who=who, things=things, number=number)
                verb = f"{opener} {what}." if opener != "I need" else f"I need {what}."
                request = f"{verb} {features[a]} {features[b]}"
                rows.append({"id": f"{category}-{short}-{k}", "category": category, "request": request})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rows = build_rows()
    if len({r["request"] for r in rows}) != len(rows):
        raise SystemExit("duplicate requests generated")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} prompts to {args.out}")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""The quickstart's HTML report in a real browser, and its exports in pandas.

    tests/report_page_test.py BUILD_DIR    (ctest runs it as refinery_report_page)

Runs the quickstart into a temporary folder (a copy of runs/quickstart, which
scripts/setup.sh leaves, resumed with nothing to do), labels one attempt (its note
holds markup, as a hostile note or message could), then:
  - opens RUN/report.html in headless Chromium: the page says it rendered, the
    browser logged nothing to its console, no markup from the runs ran, every
    figure on the page (each cell with data-json) is report.json's value as
    the page formats it, and a screenshot is taken (REFINERY_SCREENSHOT=PATH
    keeps it);
  - loads `refinery export --format csv` and `--format jsonl` with pandas: one
    row per attempt and one per arm x turn, with report.json's figures.
Skips (77) where Chromium or pandas is missing, except under CI (CI=true).
"""
import html.parser
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

build = os.path.abspath(sys.argv[1])
source = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
refinery = os.path.join(build, "refinery")
failures = []


def fail(what):
    failures.append(what)
    print("FAILED: " + what, file=sys.stderr)


def skip(why):
    if os.environ.get("CI") == "true":
        print("FAILED (CI must run this test): " + why, file=sys.stderr)
        sys.exit(1)
    print("SKIPPED: " + why)
    sys.exit(77)


chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    skip("no chromium (apt-get install chromium)")
try:
    import pandas
except ImportError:
    skip("no pandas for " + sys.executable + " (apt-get install python3-pandas)")


def run(*args, check=True):
    p = subprocess.run(list(args), capture_output=True, text=True, cwd=source)
    if check and p.returncode != 0:
        print(p.stdout, p.stderr, file=sys.stderr)
        raise SystemExit("FAILED: " + " ".join(args) + " exited " + str(p.returncode))
    return p


tmp = tempfile.mkdtemp(prefix="refinery-report-page-")
try:
    folder = os.path.join(tmp, "quickstart")
    # The quickstart scripts/setup.sh ran (runs/quickstart), copied, is resumed with nothing
    # left to do; without one it runs here.
    ran = os.path.join(source, "runs", "quickstart")
    same = os.path.exists(os.path.join(ran, "config.yaml")) and \
        open(os.path.join(ran, "config.yaml")).read() == open(os.path.join(source, "configs", "quickstart.yaml")).read()
    if same and os.path.exists(os.path.join(ran, "attempts.jsonl")):
        shutil.copytree(ran, folder, ignore=shutil.ignore_patterns("lock", "labels.jsonl", "export"))
    run(refinery, "run", "configs/quickstart.yaml", "--out", folder)
    attempts = [json.loads(line) for line in open(os.path.join(folder, "attempts.jsonl"))]
    correct = [a["key"] for a in attempts if a["status"] == "correct"]
    hostile = '<img src=x onerror="document.body.dataset.pwned=1"></script><script>document.body.dataset.pwned=2</script>'
    run(refinery, "audit", folder, correct[0], "--label", "reward_hack", "--note", hostile)
    listed = run(refinery, "audit", folder).stdout
    if correct[0] not in listed or "reward_hack" not in listed:
        fail("refinery audit RUN does not list the labelled attempt:\n" + listed)
    page = run(refinery, "report", folder, "--html").stdout.strip()
    if page != os.path.join(folder, "report.html"):
        fail("refinery report --html printed " + page)
    report = json.load(open(os.path.join(folder, "report.json")))
    if report["arms"][0].get("reward_hacks") != 1:
        fail("report.json does not count the labelled reward hack: " + str(report["arms"][0].get("reward_hacks")))

    # The page, as the browser leaves it after its scripts ran.
    flags = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
             "--virtual-time-budget=10000", "--window-size=1300,2400"]
    dom = subprocess.run(flags + ["--dump-dom", "file://" + page], capture_output=True, text=True, timeout=120)
    console = [l for l in dom.stderr.splitlines() if ":CONSOLE" in l]
    if console:
        fail("the browser's console has messages:\n" + "\n".join(console))
    if 'data-rendered="ok"' not in dom.stdout:
        fail("the page did not say it rendered: " + dom.stdout[-2000:])
    if "data-pwned" in dom.stdout:
        fail("markup from a label's note ran in the page")
    # Equal cost: fast_p and the geometric mean against each unit something was spent in (the
    # replayed quickstart spends attempts and worker seconds, no tokens and no dollars), and a
    # note naming the units left out.
    equal_cost = re.search(r'<section id="equal-cost">(.*?)</section>', dom.stdout, re.S)
    section = equal_cost.group(1) if equal_cost else ""
    spent = {unit: max(t["spent"][unit] for arm in report["arms"] for t in arm["turns"])
             for unit in ("attempts", "tokens", "dollars", "gpu_seconds")}
    if spent["attempts"] <= 0 or spent["gpu_seconds"] <= 0 or spent["tokens"] or spent["dollars"]:
        fail("the replayed quickstart's spending is not what this test expects: %s" % spent)
    drawn = section.count("geometric-mean speedup")
    if drawn != 2:
        fail("the equal-cost section draws the geometric mean against %d units spent, not 2 (%s)" % (drawn, spent))
    if "nothing was spent in tokens or dollars" not in section:
        fail("the equal-cost section does not say that tokens and dollars were not drawn")

    class Cells(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.cells, self.path, self.text, self.notes = [], None, "", ""

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if "data-json" in a:
                self.path, self.text = a["data-json"], ""

        def handle_endtag(self, tag):
            if tag == "td" and self.path is not None:
                self.cells.append((self.path, self.text))
                self.path = None

        def handle_data(self, data):
            if self.path is not None:
                self.text += data
            self.notes += data

    cells = Cells()
    cells.feed(dom.stdout)
    if hostile not in cells.notes:
        fail("the label's note is not shown as text on the page")

    def value_at(path):
        v = {"report": report}
        for part in path.split("/"):
            v = v[int(part)] if isinstance(v, list) else v[part]
        return v

    def shown(path, v):
        name = path.split("/")[-1]
        if v is None:
            return "-"
        if name in ("correct_rate", "sol_median") or "/fast_p/" in path:
            return "%.1f%%" % (100 * v)
        if name == "geomean_speedup":
            return "%.3fx" % v
        if name == "cost_usd":
            return "$%.4f" % v
        return str(v)

    checked = 0
    for path, text in cells.cells:
        if not path.startswith("report/"):
            continue
        expected = shown(path, value_at(path))
        checked += 1
        if text != expected:
            fail("%s: the page shows %r, report.json has %r" % (path, text, expected))
    turns = len(report["arms"][0]["turns"])
    if checked < turns * (len(report["thresholds"]) + 4):
        fail("only %d figures on the page carry data-json" % checked)
    print("page: %d figures equal to report.json's, %d bytes" % (checked, os.path.getsize(page)))

    shot = os.path.join(tmp, "report.png")
    subprocess.run(flags + ["--screenshot=" + shot, "file://" + page], capture_output=True, timeout=120)
    if not os.path.exists(shot) or os.path.getsize(shot) < 20000:
        fail("no screenshot of the page (or an empty one)")
    elif os.environ.get("REFINERY_SCREENSHOT"):
        shutil.copy(shot, os.environ["REFINERY_SCREENSHOT"])

    # A paired comparison of the arm with itself: no difference, an interval of [0, 0].
    compared = json.loads(run(refinery, "compare", folder, folder, "--json", "--html", os.path.join(tmp, "c.html")).stdout)
    last = compared["turns"][-1]
    if compared["paired"] != 5 or any(d["value"] != 0 or d["low"] != 0 or d["high"] != 0 for d in last["fast_p_diff"]):
        fail("refinery compare of a run with itself: " + json.dumps(last))
    if last["won"] != 0 or last["lost"] != 0 or last["tied"] != 5:
        fail("refinery compare of a run with itself should tie every problem: " + json.dumps(last))
    # The same run twice is no campaign: every attempt would count twice.
    twice = run(refinery, "report", folder, folder, "--out", os.path.join(tmp, "twice"), check=False)
    if twice.returncode != 1 or "is in both" not in twice.stderr:
        fail("refinery report RUN RUN did not refuse: " + twice.stderr)

    # The exports, as pandas reads them.
    for fmt in ("csv", "jsonl"):
        out = os.path.join(tmp, "export-" + fmt)
        run(refinery, "export", folder, "--format", fmt, "--out", out)
        read = (lambda p: pandas.read_csv(p)) if fmt == "csv" else (lambda p: pandas.read_json(p, lines=True))
        rows = read(os.path.join(out, "attempts." + fmt))
        if len(rows) != len(attempts):
            fail("%s: %d attempt rows for %d attempts" % (fmt, len(rows), len(attempts)))
        for column in ("problem", "model", "strategy", "turn", "status", "speedup", "sol_fraction", "cost_usd", "precision",
                       "input_tokens", "label", "libtorch", "gpu"):
            if column not in rows.columns:
                fail("%s: no column %s" % (fmt, column))
        labelled = rows[rows["key"] == correct[0]]
        if len(labelled) != 1 or labelled.iloc[0]["label"] != "reward_hack":
            fail("%s: the labelled attempt's row does not say reward_hack" % fmt)
        by_turn = read(os.path.join(out, "turns." + fmt))
        if len(by_turn) != turns:
            fail("%s: %d turn rows for %d turns" % (fmt, len(by_turn), turns))
        for i, t in enumerate(report["arms"][0]["turns"]):
            for p, v in t["fast_p"].items():
                got = by_turn.iloc[i]["fast_" + p]
                if not math.isclose(got, v, abs_tol=1e-12):
                    fail("%s: turn %d fast_%s is %r, report.json has %r" % (fmt, i + 1, p, got, v))
        print("%s: %d attempt rows, %d turn rows, read by pandas %s" % (fmt, len(rows), len(by_turn), pandas.__version__))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

if failures:
    sys.exit(1)
print("report page: all checks passed")

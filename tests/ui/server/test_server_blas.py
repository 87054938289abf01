"""The app runs every BLAS library with one thread (ui/server/blas.py, imported first by app.py)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_after_the_apps_imports_every_blas_library_has_one_thread():
    code = (
        "import json\n"
        "from ui.server.blas import blas_threads\n"
        "import perceptron_core, ui.variants.figures, ui.sgd.figures\n"
        "from perceptron_core import make_dataset, max_margin\n"
        "max_margin(*make_dataset('separable'))\n"
        "print(json.dumps(blas_threads()))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    threads = json.loads(out.stdout)
    assert threads and set(threads.values()) == {1}, threads


def test_the_app_imports_it_before_anything_else():
    # app.py is the server (imported) and the page script (run): both branches come after
    lines = [line.strip() for line in (ROOT / "app.py").read_text().splitlines()]
    imports = [line for line in lines if line.startswith(("import ", "from "))]
    # streamlit may come first (app.py titles the tab with it before anything heavy loads);
    # the limit is process-wide, so what counts is that it comes before the app's own code
    ours = [
        line for line in imports if line.startswith(("from ui", "import ui", "from perceptron"))
    ]
    assert ours[0].startswith("from ui.server import blas"), ours

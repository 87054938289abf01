"""The engine is pure numpy: importing it pulls in neither Streamlit nor Plotly."""

import subprocess
import sys


def test_importing_the_engine_does_not_import_streamlit_or_plotly():
    code = (
        "import sys, perceptron_core as pc\n"
        "X, y = pc.make_dataset('separable')\n"
        "pc.proof_curves(pc.train(X, y), pc.max_margin(X, y))\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'streamlit', 'plotly'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""

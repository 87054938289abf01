"""The look: colours, page style, geometry of a view, how numbers are written, Plotly
defaults, and text that is safe to show (escaping and the lesson texts in ``assets/``).

Owns how things look and read, not what they mean. Imports Streamlit (for the page's
style), libraries and ``ui.words`` (a language's numbers and lesson texts) only: nothing
else of the app. A change of colour, of a number's
format or of a chart's defaults goes here.
"""

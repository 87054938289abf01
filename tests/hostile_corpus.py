"""Text a mischievous student sends, one string per trick a renderer may fall for.

Shared by the unit tests of ``ui.look.text``, the AppTest pages and the browser tests:
each string must show as typed and never become a link, an image, a style, an icon,
maths or a tag.
"""

CORPUS: tuple[str, ...] = (
    "[CLICK ME](http://evil.invalid)",
    "![t](http://evil.invalid/track.gif)",
    "<http://evil.invalid/auto>",
    "http://evil.invalid/bare",
    "www.evil.invalid",
    "student@evil.invalid",
    "<img src=x onerror=alert(1)>",
    "<script>alert(2)</script>",
    "<span style='color:red;font-size:80px'>BIG</span>",
    "<a href='http://evil.invalid'>a</a>",
    "<b>bold</b><br>next",
    ":material/warning: icon",
    ":red[red text] :blue-background[bg]",
    ":smile: :rocket:",
    "$x^2$ and $$\\int$$",
    "\\href{http://evil.invalid}{x}",
    "**bold** _it_ `code` ~~gone~~",
    "# heading",
    "> quote",
    "- item",
    "a | b | c",
    "&lt;b&gt; &amp;",
    "%{x} %{customdata}",
    "line one\nline two\r\nthree\x00four",
)

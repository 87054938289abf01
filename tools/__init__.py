"""What benchmarks, tests and the deployment share to drive a real Streamlit server:
starting and stopping ``streamlit run`` on a free loopback port (:mod:`tools.streamlit_server`),
and a client that speaks Streamlit's own websocket protocol as the browser does
(:mod:`tools.streamlit_client`: any page; :mod:`tools.components`: the lecture player's and
the margin lab's data and what an answer must show; :mod:`tools.app_client`: a session on
this app's pages; :mod:`tools.live`: a tab left open, polling as the browser's timers do).
It may import the standard library, Streamlit's proto and protocol modules, ``websockets``,
and the app's packages for constants only where needed; nothing from ``benchmarks`` or
``tests``, which build on it (and ``deploy`` imports it, so it must stay free of them)."""

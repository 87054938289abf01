// The lecture player's types: what Python sends and what the page keeps (JSDoc, for
// tsc --checkJs; nothing at run time).
// A plain script that goes in front of player.js's module (ui/lecture/player.py joins
// player_types.js, player_chart.js, player_moves.js, player_follow.js and player.js in
// that order): its names are the player's, shared with the files around it.

// --- what Python sends (JSDoc types: tsc --checkJs in the tests, nothing at run time) ------

/** @typedef {[number, number]} XY a point [x, y] */
/** @typedef {number[][]} Path points [x, y] in data units (or k and a value on a proof panel) */
/** @typedef {"claim1" | "claim2" | "squeeze"} ProofId the three proof panels */
/** @typedef {"data" | ProofId} PanelId */
/** @typedef {"claim1_dyn" | "claim2_dyn" | "squeeze_dyn"} SeriesId */

/**
 * One panel's fixed part (figures._panels).
 * @typedef {object} PanelSpec
 * @property {string} title
 * @property {XY} x the range shown across
 * @property {XY} y the range shown up
 * @property {string} xlabel
 * @property {string} [ylabel] the data panel's only
 * @property {string} [note] why a proof panel stays empty (not separable)
 */
/** @typedef {PanelSpec & {key: [string, string, string]}} ClaimPanelSpec key: name, relation, the bound's name */
/** @typedef {PanelSpec & {key: [string, string, string, string] | null}} SqueezePanelSpec key: w·w*, ‖w‖, the lower and upper curves; null when not separable */

/**
 * A claim's curve up to the window's last mistake (figures._curves).
 * @typedef {object} Claim
 * @property {number[]} k mistakes k (thinned)
 * @property {number[]} v the value at each k
 * @property {Path} bound the bound as a line: [[0, b0], [k, bk]]
 */

/**
 * The squeeze panel's curves (figures._curves), null when not separable.
 * @typedef {object} Squeeze
 * @property {number[]} k
 * @property {number[]} dot w·w* (per η) at each k
 * @property {number[]} norm ‖w‖ (per η) at each k
 * @property {[number[], number[]]} lower k and the lower bounding curve
 * @property {[number[], number[]]} upper k and the upper bounding curve
 * @property {number} bound where they meet
 * @property {string} bound_text
 * @property {[string, string]} names
 * @property {boolean} per_eta
 */

/**
 * The data's points (figures._points): one list per column.
 * @typedef {object} Points
 * @property {number[]} x
 * @property {number[]} y
 * @property {number[]} label +1 or −1
 * @property {string[]} [tip] a tooltip per point (at most 500 points)
 */

/**
 * The maths at t = 0 (figures._math): w₀, written.
 * @typedef {object} MathAtStart
 * @property {string[]} w0
 */
/**
 * The maths of the step just done (figures._math): every number already written.
 * @typedef {object} MathBase
 * @property {number} i the example's point, from 1
 * @property {string} y its label, "+1" or "−1"
 * @property {string[]} w w before the step
 * @property {string[]} x the example (with its 1 for the bias)
 * @property {string} m the margin y·w·x
 * @property {string} rule on a tie (m = 0) the rule that made the verdict, as a formula; else ""
 */
/** @typedef {MathBase & ({mistake: false} | {mistake: true, wa: string[]})} MathOfStep wa: w after the update */

/**
 * What moves at step t (figures.step_view).
 * @typedef {object} StepView
 * @property {number} t
 * @property {number} k mistakes before step t
 * @property {string[]} status
 * @property {string} end how the run ended, at its last step; else ""
 * @property {Path | null} line w·x = 0 inside the view
 * @property {Path} plus the half-plane predicted +1 (empty when w draws no line)
 * @property {Path} minus
 * @property {number | null} dot w·w* (null without w*)
 * @property {number} nsq ‖w‖²
 * @property {XY | null} arrow w's tip (null for w = 0)
 * @property {string} arrow_label
 * @property {number | null} shown the row of the example just shown (null at t = 0)
 * @property {boolean} mistake
 * @property {string} said
 * @property {MathAtStart | MathOfStep} math MathAtStart at t = 0, else MathOfStep
 * @property {string} say one sentence for a screen reader
 */

/**
 * One window of steps of a run (figures.lecture_scene, with its run's id: runs.scene).
 * @typedef {object} LectureScene
 * @property {string} run
 * @property {string} name the dataset's name: plain text (textContent only)
 * @property {number} T steps in the run
 * @property {number} n examples per epoch
 * @property {number} start the window's first step
 * @property {number} stop its last
 * @property {number} after the step of the next mistake after the window (or T)
 * @property {string} eta η as written
 * @property {number} eta_value η to divide by
 * @property {boolean} bias
 * @property {string[]} facts
 * @property {{data: PanelSpec, claim1: ClaimPanelSpec, claim2: ClaimPanelSpec, squeeze: SqueezePanelSpec}} panels
 * @property {Points} points
 * @property {Path | null} wstar
 * @property {Path[]} band
 * @property {{r: number, name: string}} ring
 * @property {Claim | null} claim1 null when not separable
 * @property {Claim} claim2
 * @property {Squeeze | null} squeeze
 * @property {StepView[]} steps one per t in start..stop
 */

/**
 * The player's data (player.player): the server's step and the window it is in.
 * @typedef {object} PlayerStep
 * @property {number} t
 * @property {number} seq the last report the server acted on
 * @property {string} run
 * @property {number} start
 * @property {number} stop
 * @property {boolean} presenter
 * @property {boolean} [projector] presenter mode in the projector theme (thicker lines, stronger tints)
 * @property {number} play a new value: a replay plays on into this window
 * @property {[number, number] | null} asked the class's open question: [step, point]
 * @property {string} summary the run's settings, shown in presenter mode (the page's widgets are hidden)
 * @property {boolean} [lead] a class's lecturer: Play and Pause are reported at once (the followers play along)
 * @property {Along | null} [along] the lecturer's Play by the server's clock: a follower plays along with it, the lecturer plays on it
 * @property {number} [sent] the server's clock as it sent this, in seconds (compared only with other messages' times: see lateness)
 * @property {boolean} [quick] sent by a rerun of the instrument alone (a report, the class push), not a whole page's run
 * @property {Follow | null} [follow] a following student's page: the lecturer's change it shows (follow.live_follow)
 * @property {Post | null} [post] a student stepping alone: where the steps are posted (no rerun)
 * @property {number | null} [remote] the lecturer's page: the number of the remote's last press before this draw
 * @property {Record<string, string>} [words] this page's words in its language (ui.words.script_words; none: English)
 */

/**
 * Where a page posts its own steps (ui.live.reports).
 * @typedef {object} Post
 * @property {string} url the route
 * @property {string} k the session's key for this page
 */

/**
 * The lecturer's Play as a follower's server sends it (follow.play_along).
 * @typedef {object} Along
 * @property {number} from the step the lecturer's Play started from (between two steps)
 * @property {number} rate steps a second
 * @property {number} elapsed seconds since it started, by the server's clock as it sent this (below 0: until it starts)
 */

/**
 * What a student's page shows of the class's lecture (follow.live_follow).
 * @typedef {object} Follow
 * @property {boolean} following the student follows the lecturer (else only q is heard)
 * @property {number} n the lecturer's change the page shows
 * @property {string} run the version of the lecture's run (its settings and data)
 * @property {string} q the version of the question its chart rings
 */

/**
 * The room's state on the live channel (ui/classmode/live.py state_of), as ui/live/live.js hands it on.
 * @typedef {object} LiveMessage
 * @property {number} id
 * @property {number} sent the server's clock as it sent it, in s
 * @property {{closed?: boolean, lecture?: {n: number, run: string, t: number, q: string, asked?: unknown, play: [number, number, number] | null, remote?: unknown}}} state
 */

/** @typedef {LectureScene & PlayerStep} PlayerData the scene and the step, as drawn */
/** @typedef {PlayerData & {asked: [number, number]}} AskedData */

/** @typedef {{x: number, y: number, w: number, h: number, inline?: boolean}} Box a panel's place in CSS px; inline: its title and key on one line */
/**
 * @typedef {object} Layout
 * @property {number} width
 * @property {number} height
 * @property {number} font the chart's font size, CSS px
 * @property {Record<PanelId, Box>} panels
 * @property {number} stampRoom how wide the stamp over the data panel may be
 * @property {number} least the presenter's chart is never lower than this
 * @property {boolean} full the chart is as high as it may be (a phone's is always)
 */

/**
 * A panel as drawn (panel()): its groups and its scales, data units to CSS px.
 * @typedef {object} Panel
 * @property {SVGGElement} g
 * @property {SVGGElement} inner clipped to the frame
 * @property {(v: number) => number} px
 * @property {(v: number) => number} py
 * @property {number} x
 * @property {number} y
 * @property {number} w
 * @property {number} h
 */
/** @typedef {SVGGElement & {P: Panel}} SeriesG a group a proof panel's curve is drawn in, and its panel */

/**
 * What drawStatic() drew, and where drawStep() draws.
 * @typedef {object} Drawn
 * @property {Panel} data
 * @property {SVGGElement} dyn the half-planes
 * @property {SVGGElement} line the line w·x = 0
 * @property {SVGGElement} top w, the rings of the examples shown and asked, their labels
 * @property {SVGGElement} stamp the step and what it did, above the data panel
 * @property {Rect[]} marks the points' boxes: no label covers one
 * @property {Panel} claim1
 * @property {Panel} claim2
 * @property {Panel} squeeze
 * @property {SeriesG} claim1_dyn
 * @property {SeriesG} claim2_dyn
 * @property {SeriesG} squeeze_dyn
 * @property {Record<string, string>} [drawnAs] what each part drawn last shows (drawStep draws a part again only when it changed)
 */

/**
 * The page's state (window.__perceptronLecture, see ui/components.d.ts): the scene carrier
 * in player.py leaves `scene` (and `sceneRaw`) and calls `onScene`. The elements are made
 * by build() before anything reads them (paint() waits for `wrap`, redraw() for
 * `chartBox`), `layout`, `fig` and `svg` (its lowest layer) by redraw(), `setTrigger` and `component` by the
 * first mount.
 * @typedef {object} Lecture
 * @property {number} chartTop the chart's top in the page, CSS px
 * @property {number} below room under the chart (the legend)
 * @property {number} t the step on screen
 * @property {number} seq the number of the last report sent (or heard of)
 * @property {boolean} dirty a step the server has not heard of yet
 * @property {string | null} key the run and window on screen
 * @property {PlayerData | null} data
 * @property {boolean} playing
 * @property {boolean} pending the server was asked for another window
 * @property {number} speed steps a second
 * @property {number | null} timer the report's timer
 * @property {number} [askTimer] the timer of a step that waits for its scene
 * @property {number} raf
 * @property {Element | null} root
 * @property {boolean} listening
 * @property {LectureScene | null} scene
 * @property {unknown} [sceneRaw] the carrier's data, as it came
 * @property {() => void} [onScene]
 * @property {StreamlitComponent<PlayerStep>} component
 * @property {(name: string, value: unknown) => void} setTrigger
 * @property {Record<string, HTMLButtonElement>} buttons
 * @property {HTMLSelectElement} speedSel
 * @property {HTMLButtonElement} presBtn
 * @property {HTMLInputElement} range
 * @property {HTMLSpanElement} rangeText
 * @property {HTMLParagraphElement} status
 * @property {HTMLParagraphElement} facts the run's facts and settings (presenter mode)
 * @property {HTMLParagraphElement} note
 * @property {HTMLDivElement} maths
 * @property {HTMLDivElement} chartBox
 * @property {HTMLParagraphElement} say
 * @property {HTMLDivElement} legend
 * @property {HTMLDetailsElement} [saveBox] Save figure's menu
 * @property {HTMLDivElement} wrap
 * @property {Layout} layout
 * @property {HTMLDivElement} fig the chart (the figure a screen reader reads): its layers in one box
 * @property {SVGSVGElement} svg the chart's lowest layer (the ones over it: its box's other children)
 * @property {Drawn} [P]
 * @property {number} [shrink] CSS px the presenter's chart gave up (or, below 0, gained) against its estimate of the room
 * @property {boolean} [refitting]
 * @property {number} [noteTimer]
 * @property {number} [resize]
 * @property {string | null} [drawn] the scene and mode the chart was drawn for
 * @property {number} [played] the replay counter already played
 * @property {{from: number, rate: number, at: number} | null} [along] playing along with the lecturer: from step `from` at this page's time `at` (performance.now), at `rate` steps a second
 * @property {number} [alongRaf] the play-along's animation frame
 * @property {number} [askedAt] when the play-along last asked for the next window
 * @property {{base: number, rate: number, at: number} | null} [clock] this page's Play: step base at time `at` (performance.now)
 * @property {number} [quickest] the least (this page's clock − the server's) over the messages so far, in seconds
 * @property {boolean} [clipping] a clip is being recorded: the chart moves through its steps
 * @property {number} [followN] a follower's page: the lecturer's change it shows now (drawn from the live channel or sent)
 * @property {number} [remoteN] the lecturer's page: the remote's last press done
 * @property {boolean} [mathsShown] the maths' box is on the screen (undefined: not known yet)
 * @property {boolean} [mathsDue] the maths on show is not the step's yet (written later)
 * @property {number} [mathsTimer]
 * @property {IntersectionObserver} [mathsWatch]
 * @property {string} [followQ] a student's page: the question version it shows or asked to be drawn
 * @property {string} [askedLive] the lecturer's change and question a rerun was last asked for (ask)
 * @property {number} [acked] the newest report the server's redraw has said it acted on (data.seq)
 * @property {number} [confirmTimer] the timer that sends an unanswered report again (confirmStep)
 * @property {number} [posted] the newest report the route took (204) that the session may not have taken yet
 * @property {string} [postedRun] the run of that report
 * @property {(url: string, body: string) => Promise<number>} [postStep] posts a step, resolves to the answer's status (post.js; the live page's only)
 * @property {number} [mounts] the server's redraws of the instrument so far
 * @property {number} [liveTimer] the timer that asks again for an unanswered live rerun (ask)
 * @property {{on: boolean, tries: number, timer: number} | null} [presenterAsk] the presenter switch asked for, until a redraw shows it
 */


// What the host page gives the app's own JavaScript components (ui/lecture/player.js,
// ui/margin/canvas.js), for the type check only (tsconfig.json: tsc --checkJs, no
// output): nothing here is shipped or loaded in the browser.
//
// Streamlit (st.components.v2.component) loads each component's `js=` text as an ES
// module and calls its default export with one object, on mount and again on every
// change of the data Python sent (streamlit/static .../BidiComponent: `{name, data,
// key, parentElement, setStateValue, setTriggerValue}`).

/** The argument of a component's default export; `Data` is what Python sent as `data=`. */
interface StreamlitComponent<Data> {
  /** The component's registered name (e.g. "perceptron.lecture"). */
  name: string;
  /** The mounted instance's key (Python's `key=`). */
  key: string;
  /** Python's `data=`, decoded from JSON (bytes arrive as a Uint8Array). */
  data: Data | null | undefined;
  /** Where the component draws: a shadow root with `isolate_styles=True` (the default),
   * else an element; the component's `html=` is already inside it. */
  parentElement: HTMLElement | ShadowRoot;
  /** Keep a named value in the component's state (survives reruns). */
  setStateValue(name: string, value: unknown): void;
  /** Fire a one-shot event `name` with `value`: Python's `on_<name>_change` callback runs. */
  setTriggerValue(name: string, value: unknown): void;
}

interface Window {
  /** The lecture page's state shared by its two components (ui/lecture/player.py): the
   * scene carrier (`_SCENE_JS`) leaves `scene` (and `sceneRaw`) here and calls `onScene`;
   * player.js keeps everything else. Either may run first. */
  __perceptronLecture?: Lecture;
  /** The class's live channel of the page (ui/live/live.js): its websocket and the newest
   * state it received (`last`), which player.js also reads when it mounts. */
  __perceptronLive?: import("./live/live.js").Live;
}

// HTML's clearTimeout takes any value and clears nothing for one that names no timer
// (null converts to 0, never a timer's id); the lib's signature only lists number and
// undefined. player.js starts its report timer as null.
declare function clearTimeout(id: number | null | undefined): void;

// gifenc's encoder as ui/look/clip.py wraps it (vendor/gifenc.esm.js): what clip.js uses.
declare const GIFENC: {
  GIFEncoder(): {
    writeFrame(
      index: Uint8Array,
      width: number,
      height: number,
      options: { palette: number[][]; delay: number },
    ): void;
    finish(): void;
    bytes(): Uint8Array<ArrayBuffer>;
  };
  quantize(rgba: Uint8ClampedArray, maxColors: number): number[][];
  applyPalette(rgba: Uint8ClampedArray, palette: number[][]): Uint8Array;
};

// What the page scripts (Templates/assets/*.js) use beyond the DOM, for `tsc -p Tests/JS`:
// node's `module` (each script also exports its API under node), the properties the scripts
// keep on their own DOM nodes, and the APIs they put on `window`.
declare var module: { exports: any } | undefined;
declare function require(name: string): any;

interface Element {
  rowkitItem?: number;
  rowkitKind?: number;
  rowkitHandle?: number;
  rowkitShape?: number;
  rowkitParts?: any;
  rowkitY?: number;
  rowkitFilled?: boolean;
  rowkitRow?: number;
}

interface Window {
  RowKitCore: any;
  RowKitSearch: any;
  RowKitListing: any;
  RowKitLive: any;
}

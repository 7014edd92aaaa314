/// The record of a site's files, kept in the site as `.rowkit-manifest.json` so the next export
/// can tell what changed, read and written as a stream so a site of millions of files needs no
/// more memory than one page's worth of entries.
///
/// A JSON document with one entry per line (deterministic: the same export gives the same bytes):
///
/// ```
/// {"version":2,
/// "settings":"<16 hex>","pages":24,"rows":1200,"bytes":98213,"files":26,
/// "inputs":[
/// ["listing.yaml",29456775,"<16 hex>"]],
/// "images":[
/// ["0/icons/wifi.png",1826,"<16 hex>"]],
/// "files":[
/// ["assets/rowkit.css","<16 hex>",8123],
/// ["index.html","<16 hex>",40213,"0/1","<16 hex>",[[1200,38002]]],
/// ["rows/wifi.html","<16 hex>",1830,"0/1","<16 hex>"]]}
/// ```
///
/// A file entry is its path, the hash of its content (``StableHash``) and its size. The pages of
/// a table carry their *unit*, `table/page` (the list page and the detail pages of its rows), and
/// the *source key* they were made from: a hash of their rows, the options, templates and tool. A
/// list page also records where its sections' rows lie in the file, so they can be reused when
/// only the page's surroundings change (its page count, the index bar). Site-wide files come
/// first, then the units in order. `settings` is the key of the options, templates and tool;
/// `inputs` and `images` are the files the site was made from (an image as `<table>/<path>`, its
/// path relative to its table's folder), so an export whose inputs, images
/// and settings are all unchanged can keep the previous site as it is.
enum Manifest {
    static let fileName = ".rowkit-manifest.json"
    /// The manifest while it is written, in the temporary folder; renamed to ``fileName`` whole.
    static let partialName = ".rowkit-manifest.json.partial"
    static let version = 2
}

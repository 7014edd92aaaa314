extension Changeset: CustomStringConvertible {
    /// The changes in the compact form the articles use, one entry per item, joined by `; `:
    /// sections first (`delSec 3`, `insSec 0`, `relSec 1`, `movSec 1->2`), then rows (`del [0,1]`,
    /// `ins [0,2]`, `rel [1,0]`, `mov [0,1]->[0,2]`), each list in its own order, and
    /// `reloadsEverything` last when set; `no changes` when nothing is listed.
    ///
    /// ```
    /// delSec 3; movSec 1->2; del [0,1]; rel [0,3]; mov [0,3]->[1,0]
    /// ```
    ///
    /// Deletes and reloads are old indices, inserts new ones, moves old -> new (the contract of
    /// <doc:Changesets>). Revisions, counts and animations are left out.
    ///
    /// - Complexity: O(*c*) for *c* listed changes.
    public var description: String {
        func path(_ path: RowPath) -> String { "[\(path.section),\(path.row)]" }
        var entries: [String] = []
        entries += deletedSections.map { "delSec \($0.index)" }
        entries += insertedSections.map { "insSec \($0.index)" }
        entries += reloadedSections.map { "relSec \($0.index)" }
        entries += movedSections.map { "movSec \($0.from)->\($0.to)" }
        entries += deletedRows.map { "del \(path($0.index))" }
        entries += insertedRows.map { "ins \(path($0.index))" }
        entries += reloadedRows.map { "rel \(path($0.index))" }
        entries += movedRows.map { "mov \(path($0.from))->\(path($0.to))" }
        if reloadsEverything { entries.append("reloadsEverything") }
        return entries.isEmpty ? "no changes" : entries.joined(separator: "; ")
    }
}

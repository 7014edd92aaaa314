/// The control at the trailing edge of a row; raw values are the spellings used in listing files.
public enum ListingAccessory: String, Sendable, Hashable, CaseIterable {
    /// No accessory.
    case none
    /// A chevron: the row leads to a detail page.
    case disclosureIndicator
    /// A check mark.
    case checkmark
    /// An info button.
    case detailButton
    /// An info button and a chevron.
    case detailDisclosureButton

    /// Whether a row with this accessory leads to a detail page (its `body`): the accessories that
    /// draw a chevron, exactly as RowKit's `Accessory.discloses` (an info button alone reports a tap;
    /// it does not push a page, so its row's body is shown under the row instead).
    public var discloses: Bool { accessory.discloses }
}

import RowKitHTML

import RowKit

package sparkdrill.reader

/** StructField metadata the scan attaches to the columns it hands a reader. */
object ColumnMetadata {

  /** A NOT NULL column's default, as text the column's converter reads (`-1`, `NA`, `2019-03-28`). */
  val DefaultKey = "drill.default"
}

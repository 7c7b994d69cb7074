package sparkdrill.reader

import org.apache.spark.sql.types.{MetadataBuilder, StructField}

/** Where inside a file discovery found a column, for a format whose files have parts (a workbook's sheets):
  * kept in the discovered field's metadata, shown by `sd.describe` beside `seen_in`, and never part of the
  * table's columns (the scan builds those from names and types only).
  */
object ColumnPlaces {
  private val Key = "sparkdrill.places"

  /** `field` found in `places` (`sheet 'Jan'`, `sheets 'Jan', 'Feb'`). */
  def tag(field: StructField, places: String): StructField =
    field.copy(metadata = new MetadataBuilder().withMetadata(field.metadata).putString(Key, places).build())

  def of(field: StructField): Option[String] =
    if (field.metadata.contains(Key)) Some(field.metadata.getString(Key)) else None
}

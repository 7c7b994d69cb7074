package sparkdrill.scan

import org.apache.spark.sql.types.{StructField, StructType}

import sparkdrill.errors.DrillErrors
import sparkdrill.loader.VariantTypes
import sparkdrill.reader.{CommonOptions, ReaderOptions}

/** The options that ask for a VARIANT (SPEC 14): `singleVariantColumn` and `rescuedDataType=variant`
  * (a provided schema's VARIANT columns are [[sparkdrill.scan.schema.ProvidedSchema]]'s). Checked when a read
  * is planned, so that Spark 3.5 refuses them by name before any file is read.
  */
private[sparkdrill] object VariantOptions {

  /** Refuses the options on a Spark without VARIANT. */
  def check(options: ReaderOptions): Unit = if (!VariantTypes.available) {
    options.get(CommonOptions.SingleVariantColumn).foreach { name =>
      throw DrillErrors.variantNeedsSpark4(CommonOptions.SingleVariantColumn.name, name, sparkVersion)
    }
    if (rescuedAsVariant(options))
      throw DrillErrors.variantNeedsSpark4(CommonOptions.RescuedDataType.name, "variant", sparkVersion)
  }

  /** `singleVariantColumn`'s one data column, when set: every file's columns as the table sees them. */
  def singleColumn(options: ReaderOptions): Option[StructType] =
    options.get(CommonOptions.SingleVariantColumn).map { name =>
      check(options)
      if (options.get(ScanOptions.ProvidedSchema).exists(_.trim.nonEmpty))
        throw DrillErrors.singleVariantWith(ScanOptions.ProvidedSchema.name)
      StructType(Seq(StructField(name, VariantTypes.variant, nullable = true)))
    }

  def rescuedAsVariant(options: ReaderOptions): Boolean = options(CommonOptions.RescuedDataType) == "variant"

  def sparkVersion: String = org.apache.spark.SPARK_VERSION
}

package sparkdrill.loader

import org.apache.spark.sql.types.DataType

import sparkdrill.errors.DrillErrors

/** Spark 3.5 has no VARIANT: nothing is one, and asking for one is an error (the planner names the option
  * first, VariantOptions). The Spark 4 shim has the same members.
  */
private[sparkdrill] object VariantTypes {
  val available: Boolean = false

  def variant: DataType =
    throw DrillErrors.internal("a VARIANT on Spark 3.5, past the planner's check") // refused when planned

  def isVariant(t: DataType): Boolean = false

  def allowDuplicateKeys: Boolean = false

  def builder(allowDuplicateKeys: Boolean): VariantValueBuilder = variant.asInstanceOf[VariantValueBuilder]
}

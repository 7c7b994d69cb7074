package sparkdrill.errors

/** A broken invariant: a bug of spark-drill's or of a format plugin's, never a user's input or request. Plain
  * exceptions without a class (Spark's own internal errors are not for users to match on either), but made
  * here so that `ErrorFactorySuite` can tell them from a user-facing error thrown in place. The three kinds
  * keep the Java types callers (and Spark) know.
  */
trait InternalErrors {

  /** A state that should not happen (a loader asked twice, a token no grammar makes). */
  def internal(message: String): IllegalStateException = new IllegalStateException(message)

  /** A caller passed what the method never takes (a column the loader lacks, a type it cannot write). Some
    * converters catch it as "this value does not convert": those keep working.
    */
  def internalArgument(message: String): IllegalArgumentException = new IllegalArgumentException(message)

  /** A call the class never serves (a row read of a columnar-only reader). */
  def notSupported(message: String): UnsupportedOperationException =
    new UnsupportedOperationException(message)
}

package sparkdrill

/** The reader contract's names for the errors a reader raises, kept here (where format plugins import them
  * from, `import sparkdrill.reader._`) since the errors moved to [[sparkdrill.errors]], the bottom layer.
  */
package object reader {
  type ScanException = sparkdrill.errors.ScanException
  val ScanException: sparkdrill.errors.ScanException.type = sparkdrill.errors.ScanException
  type OptionException = sparkdrill.errors.OptionException
  type ErrorContext = sparkdrill.errors.ErrorContext
  val ErrorContext: sparkdrill.errors.ErrorContext.type = sparkdrill.errors.ErrorContext
  val ErrorClasses: sparkdrill.errors.ErrorClasses.type = sparkdrill.errors.ErrorClasses
}

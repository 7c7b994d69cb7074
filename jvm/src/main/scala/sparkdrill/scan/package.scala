package sparkdrill

package object scan {

  // Moved to sparkdrill.errors (the factory's errors mix it in and depend on nothing of ours). Kept for the
  // stream engine until it calls sparkdrill.errors.DrillErrors (issue 38); then this goes.
  private[sparkdrill] type EndsTheQuery = sparkdrill.errors.EndsTheQuery
}

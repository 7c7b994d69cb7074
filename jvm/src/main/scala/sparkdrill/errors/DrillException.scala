package sparkdrill.errors

/** A request spark-drill cannot serve, found at planning, that is neither an option's nor a schema's error
  * (no path, no files, a column parser that failed, two plugins of one name): an IllegalArgumentException
  * (Spark Connect raises Python's of that name) with its class, its reason and the parameters of its class.
  */
private[sparkdrill] final class DrillException(
    val errorClass: String,
    val reason: String,
    extra: Map[String, String] = Map.empty,
    cause: Throwable = null
) extends IllegalArgumentException(s"[$errorClass] spark-drill: $reason", cause)
    with SparkDrillError {
  def parameters: Map[String, String] = Map("reason" -> reason) ++ extra
}

/** A projection list that cannot be parsed or merged. `position` is the 0-based character offset in `list`
  * where the problem is; the message shows it 1-based with a caret under the list.
  */
private[sparkdrill] final class ProjectionException(val reason: String, val list: String, val position: Int)
    extends IllegalArgumentException(ProjectionException.format(reason, list, position))
    with SparkDrillError {
  def errorClass: String = ErrorClasses.ProjectionSyntax
  def parameters: Map[String, String] =
    Map("reason" -> reason, "option" -> "project", "value" -> list, "position" -> (position + 1).toString)
}

private[sparkdrill] object ProjectionException {
  def format(reason: String, list: String, position: Int): String =
    s"[${ErrorClasses.ProjectionSyntax}] spark-drill: bad projection list (option 'project'): $reason at " +
      s"position ${position + 1}\n  $list\n  " + (" " * position) + "^"
}

/** A path that is not there, as Hadoop's FileNotFoundException (what callers of a listing catch), classed. */
private[sparkdrill] final class PathNotFoundException(val reason: String, path: String, option: String)
    extends java.io.FileNotFoundException(s"[${ErrorClasses.PathNotFound}] spark-drill: $reason")
    with SparkDrillError {
  def errorClass: String = ErrorClasses.PathNotFound
  def parameters: Map[String, String] = Map("reason" -> reason, "path" -> path, "option" -> option)
}

/** A call spark-drill never serves (a change to the read-only catalog, a jar of another Spark line), as the
  * UnsupportedOperationException Spark's callers expect, classed.
  */
private[sparkdrill] final class DrillUnsupportedException(
    val errorClass: String,
    val reason: String,
    extra: Map[String, String]
) extends UnsupportedOperationException(s"[$errorClass] spark-drill: $reason")
    with SparkDrillError {
  def parameters: Map[String, String] = Map("reason" -> reason) ++ extra
}

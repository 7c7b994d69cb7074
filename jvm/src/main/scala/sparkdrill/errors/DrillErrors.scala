package sparkdrill.errors

/** The one factory of every error a user can see, shaped like Spark's `QueryCompilationErrors`: one method
  * per condition, with typed parameters, each error a `SparkThrowable` with its class ([[ErrorClasses]]) and
  * its message parameters. A reader's errors about a record or a value come from its [[ErrorContext]], which
  * lives here too. `ErrorFactorySuite` fails on an error made anywhere else.
  *
  * The methods are grouped by what went wrong, one trait (and file) each.
  */
object DrillErrors
    extends OptionErrors
    with FileErrors
    with SchemaErrors
    with PluginErrors
    with StreamErrors
    with InternalErrors

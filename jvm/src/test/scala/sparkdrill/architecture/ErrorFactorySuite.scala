package sparkdrill.architecture

import com.tngtech.archunit.base.DescribedPredicate
import com.tngtech.archunit.core.domain.{JavaClass, JavaClasses, JavaConstructorCall}
import com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo
import com.tngtech.archunit.lang.ArchRule
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.errors.SparkDrillError

/** Every error a user can see is made by `sparkdrill.errors.DrillErrors` (issue 38): no main class outside
  * `sparkdrill.errors` builds one of spark-drill's classed errors, nor an IllegalArgumentException,
  * IllegalStateException or UnsupportedOperationException (or a subclass) with `new`. A broken invariant goes
  * through `DrillErrors.internal` (and its two siblings), so a user-facing message cannot hide among them.
  * `require(...)` stays for invariants; ArchUnit sees it as a call to Predef, not a constructor.
  */
class ErrorFactorySuite extends AnyFunSuite {
  private lazy val classes: JavaClasses = LayeringSuite.mainClasses

  test("no user-facing error is built outside the factory") {
    ErrorFactorySuite.onlyTheFactoryBuildsErrors.check(classes)
  }

  test(
    "the rule is not vacuous: it finds the factory's own constructor calls when the factory is not exempt"
  ) {
    val unexempt = noClasses()
      .that()
      .resideInAPackage("sparkdrill.errors..")
      .should()
      .callConstructorWhere(ErrorFactorySuite.buildsAnError)
    intercept[AssertionError](unexempt.check(classes))
  }
}

object ErrorFactorySuite {
  private val errorTypes: Seq[Class[_]] = Seq(
    classOf[SparkDrillError],
    classOf[IllegalArgumentException],
    classOf[IllegalStateException],
    classOf[UnsupportedOperationException]
  )

  val buildsAnError: DescribedPredicate[JavaConstructorCall] =
    new DescribedPredicate[JavaConstructorCall]("builds a user-facing error type") {
      override def test(call: JavaConstructorCall): Boolean = {
        val owner: JavaClass = call.getTargetOwner
        errorTypes.exists(t => assignableTo(t).test(owner))
      }
    }

  val onlyTheFactoryBuildsErrors: ArchRule = noClasses()
    .that()
    .resideOutsideOfPackage("sparkdrill.errors..")
    // Java's library only, by design: it refuses a jar of another Scala line, whose library may not load.
    .and()
    .doNotHaveFullyQualifiedName("sparkdrill.spark.SparkLineCheck$")
    .should()
    .callConstructorWhere(buildsAnError)
}

package dev.rsql.planner.codegen;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.functions.FunctionMembers;
import dev.rsql.runtime.graph.CalcFunction;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.ClassDeclaration;
import org.apache.calcite.linq4j.tree.ClassDeclarationFinder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MemberDeclaration;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlConformance;
import org.codehaus.janino.SimpleCompiler;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Compiles the filter + projection of every calc node of a job into Java with Calcite's expression translator, and
 * the whole job's calcs into one Janino compilation unit (one nested class per calc node): a row is evaluated by
 * straight-line code, with no interpretation, reflection or name lookup per row.
 */
public final class CalcCompiler {

    private static final String PACKAGE = CalcFunction.GENERATED_PACKAGE;
    private static final AtomicInteger UNITS = new AtomicInteger();

    private final JavaTypeFactory typeFactory;
    private final RexBuilder rexBuilder;
    private final SqlConformance conformance;
    private final ClassLoader classLoader;
    private final String unitName = "Job" + UNITS.incrementAndGet();
    private final List<ClassDeclaration> classes = new ArrayList<>();
    private final List<CompiledCalc> pending = new ArrayList<>();
    private String source;
    private String timeZone = "UTC";
    private PatternSetRewriter patternSets = new PatternSetRewriter(unitName);

    public CalcCompiler(JavaTypeFactory typeFactory, SqlConformance conformance, ClassLoader classLoader) {
        this.typeFactory = typeFactory;
        this.rexBuilder = new RexBuilder(typeFactory);
        this.conformance = conformance;
        this.classLoader = classLoader;
    }

    /** The job's time zone (an id such as {@code Asia/Shanghai}) for the zone-dependent functions; default UTC. */
    public CalcCompiler timeZone(String zoneId) {
        this.timeZone = zoneId;
        return this;
    }

    /**
     * Whether constant LIKE and REGEXP tests on a column are matched together, one {@link
     * dev.rsql.planner.functions.PatternSet} per column for the whole job (default true); false tests each pattern
     * on its own. Set before the first {@link #add}.
     */
    public CalcCompiler multiPattern(boolean enabled) {
        this.patternSets = enabled ? new PatternSetRewriter(unitName) : null;
        return this;
    }

    /**
     * Adds a class generated elsewhere (e.g. a table function invoker) to the job's compilation unit; the generator
     * receives the class's simple name. The returned factory creates instances (public no-argument constructor) once
     * {@link #compile()} has run.
     */
    @SuppressWarnings("unchecked")
    public <T> Supplier<T> addClass(String prefix, java.util.function.Function<String, ClassDeclaration> generator) {
        String name = prefix + classes.size();
        classes.add(generator.apply(name));
        CompiledCalc calc = new CompiledCalc(PACKAGE + "." + unitName + "$" + name);
        pending.add(calc);
        return () -> (T) calc.instance();
    }

    /** Adds a program; the returned factory works once {@link #compile()} has run. */
    public Supplier<CalcFunction> add(RexProgram program) {
        String name = "Calc" + classes.size();
        RexProgram rewritten = patternSets == null ? program : patternSets.rewrite(program, rexBuilder);
        rewritten = ConstantLikeRewriter.rewrite(rewritten, rexBuilder);
        rewritten = CheckedCastRewriter.rewrite(TimestampCastRewriter.rewrite(rewritten, rexBuilder), rexBuilder);
        classes.add(generate(name, rewritten));
        CompiledCalc calc = new CompiledCalc(PACKAGE + "." + unitName + "$" + name);
        pending.add(calc);
        return calc;
    }

    private ClassDeclaration generate(String name, RexProgram program) {
        ParameterExpression in = Expressions.parameter(Object[].class, "in");
        RowInputGetter inputs = new RowInputGetter(in, program.getInputRowType(), typeFactory);
        BlockBuilder body = new BlockBuilder();
        if (program.getCondition() != null) {
            Expression condition = RexToLixTranslator.translateCondition(program, typeFactory, body, inputs, null,
                    conformance);
            body.add(Expressions.ifThen(Expressions.not(condition),
                    Expressions.return_(null, Expressions.constant(null, Object[].class))));
        }
        RelDataType outputType = program.getOutputRowType();
        PhysType outputPhysType = PhysTypeImpl.of(typeFactory, outputType, JavaRowFormat.ARRAY, false);
        List<Expression> values = RexToLixTranslator.translateProjects(program, typeFactory, conformance, body,
                outputPhysType, DataContext.ROOT, inputs, null);
        List<Expression> boxed = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            boxed.add(toRuntimeValue(values.get(i), outputType.getFieldList().get(i)));
        }
        body.add(Expressions.return_(null, Expressions.newArrayInit(Object.class, boxed)));

        List<MemberDeclaration> members = new ArrayList<>();
        members.add(Expressions.fieldDecl(Modifier.PRIVATE | Modifier.FINAL, DataContext.ROOT,
                Expressions.new_(StreamDataContext.class, Expressions.call(TimeZone.class, "getTimeZone",
                        Expressions.constant(timeZone)))));
        members.add(Expressions.methodDecl(Modifier.PUBLIC, Object[].class, "apply", List.of(in), body.toBlock()));
        // User functions called by the program: instance fields, opened and closed with the calc.
        members.addAll(FunctionMembers.forProgram(program));
        return Expressions.classDecl(Modifier.PUBLIC | Modifier.STATIC | Modifier.FINAL, name, null,
                List.of(CalcFunction.class), members);
    }

    private static Expression toRuntimeValue(Expression value, RelDataTypeField field) {
        Expression v = value;
        if (SqlTypeFamily.BINARY.contains(field.getType())) {
            v = Expressions.call(CodegenSupport.class, "toBytes", v);
        }
        Type t = v.getType();
        return t instanceof Class && ((Class<?>) t).isPrimitive() ? Expressions.box(v, Primitive.of(t)) : v;
    }

    /** Compiles every program added so far into one class. */
    public void compile() {
        if (pending.isEmpty()) {
            return;
        }
        ClassDeclaration unit = Expressions.classDecl(Modifier.PUBLIC | Modifier.FINAL, unitName, null, List.of(),
                new ArrayList<>(classes));
        // Hoists per-row constant work (new LikeFunction(), calls on literals) into static final fields.
        unit = (ClassDeclaration) unit.accept(ClassDeclarationFinder.create());
        source = "package " + PACKAGE + ";\n\n" + Expressions.toString(unit);
        SimpleCompiler compiler = new SimpleCompiler();
        compiler.setParentClassLoader(classLoader);
        try {
            compiler.cook(source);
        } catch (Exception e) {
            throw new PlanningException(null, "generated expression code does not compile: " + e.getMessage()
                    + "\n" + source, e);
        }
        if (patternSets != null) {
            patternSets.register();
        }
        for (CompiledCalc calc : pending) {
            calc.load(compiler.getClassLoader());
        }
        pending.clear();
    }

    /**
     * Compiles a trivial class, so that a job's compilation does not wait for the compiler's classes to load and link
     * (a process may do this on another thread while it reads its script).
     */
    public static void warmUp() {
        try {
            SimpleCompiler compiler = new SimpleCompiler();
            compiler.cook("package " + PACKAGE + ";\n"
                    + "public final class WarmUp {\n"
                    + "  public Object[] apply(Object[] in) { return in.length > 0 ? in : null; }\n"
                    + "}\n");
        } catch (Exception e) {
            throw new IllegalStateException("the expression compiler does not work: " + e.getMessage(), e);
        }
    }

    /** The generated Java source of the last compilation (for EXPLAIN and debugging). */
    public String source() {
        return source;
    }

    /** Creates instances of one generated calc class. */
    private static final class CompiledCalc implements Supplier<CalcFunction> {
        private final String className;
        private volatile Constructor<?> constructor;

        CompiledCalc(String className) {
            this.className = className;
        }

        void load(ClassLoader loader) {
            try {
                constructor = loader.loadClass(className).getDeclaredConstructor();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("generated class " + className + " is missing", e);
            }
        }

        @Override
        public CalcFunction get() {
            return (CalcFunction) instance();
        }

        Object instance() {
            if (constructor == null) {
                throw new IllegalStateException(className + " was not compiled");
            }
            try {
                return constructor.newInstance();
            } catch (java.lang.reflect.InvocationTargetException e) {
                Throwable c = e.getCause();
                throw c instanceof RuntimeException ? (RuntimeException) c
                        : new IllegalStateException("cannot instantiate " + className + ": " + c, c);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot instantiate " + className, e);
            }
        }
    }
}

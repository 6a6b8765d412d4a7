package dev.rsql.planner.codegen;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.functions.FunctionMembers;
import dev.rsql.planner.functions.SharedConjuncts;
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
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlConformance;
import org.codehaus.commons.compiler.util.reflect.ByteArrayClassLoader;
import org.codehaus.janino.SimpleCompiler;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Compiles the filter + projection of every calc node of a job into Java with Calcite's expression translator, and
 * the whole job's calcs into one Janino compilation unit (one nested class per calc node): a row is evaluated by
 * straight-line code, with no interpretation, reflection or name lookup per row.
 */
public final class CalcCompiler {

    private static final String PACKAGE = CalcFunction.GENERATED_PACKAGE;
    /** Units made so far in this JVM per job name: a unit's name is unique (its code's registries are global). */
    private static final Map<String, AtomicInteger> UNITS = new ConcurrentHashMap<>();
    /** The name of the row parameter of a generated calc's {@code apply} and a shared conjunct evaluator's test. */
    static final String INPUT = "in";

    private final JavaTypeFactory typeFactory;
    private final RexBuilder rexBuilder;
    private final SqlConformance conformance;
    private final ClassLoader classLoader;
    private final String unitName;
    private final List<ClassDeclaration> classes = new ArrayList<>();
    private final List<CompiledCalc> pending = new ArrayList<>();
    private String source;
    private String timeZone = "UTC";
    private CompiledCodeCache codeCache;
    private PatternSetRewriter patternSets;
    private EventPatternSetRewriter eventPatterns;
    private SharedConjunctRewriter sharedConjuncts;
    /** Calc programs added since the last compile; those with shared conjuncts are generated again then. */
    private final List<PendingProgram> programs = new ArrayList<>();
    private List<String> sharedDescription = List.of();
    private final Map<String, String> evaluatorClasses = new HashMap<>();
    /** The program (after the pattern-set rewrite) of each calc added, by the factory {@link #add} returned. */
    private final Map<Supplier<?>, RexProgram> addedPrograms = new IdentityHashMap<>();

    private record PendingProgram(int classIndex, String name, RexProgram program, String source) {
    }

    /** @param jobName names the compilation unit (alike for the first job of that name in every JVM) */
    public CalcCompiler(JavaTypeFactory typeFactory, SqlConformance conformance, ClassLoader classLoader,
                        String jobName) {
        this.unitName = unitName(jobName);
        this.patternSets = new PatternSetRewriter(unitName);
        this.eventPatterns = new EventPatternSetRewriter(unitName);
        this.sharedConjuncts = new SharedConjunctRewriter(unitName);
        this.typeFactory = typeFactory;
        this.rexBuilder = new RexBuilder(typeFactory);
        this.conformance = conformance;
        this.classLoader = classLoader;
    }

    /**
     * {@code Job_<job name>_<n>}, n counting the units of that name in this JVM: the same for each run of a job, so
     * that its code is found in the {@link CompiledCodeCache} (a process-wide counter differed with the order in
     * which the warm-up and the job got there).
     */
    private static String unitName(String jobName) {
        String name = "Job_" + String.valueOf(jobName).replaceAll("[^A-Za-z0-9_]", "_");
        return name + "_" + UNITS.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
    }

    /** The job's time zone (an id such as {@code Asia/Shanghai}) for the zone-dependent functions; default UTC. */
    public CalcCompiler timeZone(String zoneId) {
        this.timeZone = zoneId;
        return this;
    }

    /** Where compiled classes are kept for the next planning of the same code (null, the default: nowhere). */
    public CalcCompiler codeCache(CompiledCodeCache cache) {
        this.codeCache = cache;
        return this;
    }

    /**
     * Whether constant LIKE and REGEXP tests on a column are matched together, one {@link
     * dev.rsql.planner.functions.PatternSet} per column for the whole job, and EVENT_MATCHES tests likewise, one
     * {@link dev.rsql.planner.functions.EventPatternSet} per column (default true); false tests each pattern on its
     * own. Set before the first {@link #add}.
     */
    public CalcCompiler multiPattern(boolean enabled) {
        this.patternSets = enabled ? new PatternSetRewriter(unitName) : null;
        this.eventPatterns = enabled ? new EventPatternSetRewriter(unitName) : null;
        return this;
    }

    /**
     * Whether costly conjuncts that several calcs over one source test are evaluated once per row for all of them
     * ({@link dev.rsql.planner.functions.SharedConjuncts}, default true). Set before the first {@link #add}.
     */
    public CalcCompiler sharedPredicates(boolean enabled) {
        this.sharedConjuncts = enabled ? new SharedConjunctRewriter(unitName) : null;
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
        return add(program, null);
    }

    /**
     * Adds a program over the rows of source table {@code source} as they are read (null: over other rows); costly
     * conjuncts it shares with other calcs over the same source are evaluated once per row.
     */
    public Supplier<CalcFunction> add(RexProgram program, String source) {
        String name = "Calc" + classes.size();
        RexProgram rewritten = patternSets == null ? program : patternSets.rewrite(program, rexBuilder);
        if (eventPatterns != null) {
            rewritten = eventPatterns.rewrite(rewritten, rexBuilder);
        }
        programs.add(new PendingProgram(classes.size(), name, rewritten, source));
        // generated now, so that an expression that cannot be generated fails at its INSERT
        classes.add(generate(name, lowered(rewritten)));
        CompiledCalc calc = new CompiledCalc(PACKAGE + "." + unitName + "$" + name);
        pending.add(calc);
        addedPrograms.put(calc, rewritten);
        return calc;
    }

    /**
     * The program of the calc whose functions {@code factory} (returned by {@link #add}) makes, with its constant
     * LIKE and REGEXP tests as pattern-set tests ({@link #patternTest}); null for a factory made elsewhere.
     */
    RexProgram program(Supplier<?> factory) {
        return addedPrograms.get(factory);
    }

    /** The pattern-set test a call's operator in a {@link #program} stands for, or null. */
    PatternSetRewriter.Test patternTest(SqlOperator op) {
        return patternSets == null ? null : patternSets.test(op);
    }

    /** The event-pattern-set test a call's operator in a {@link #program} stands for, or null. */
    EventPatternSetRewriter.Test eventPatternTest(SqlOperator op) {
        return eventPatterns == null ? null : eventPatterns.test(op);
    }

    /** The program after the per-row rewrites that do not depend on other calcs. */
    private RexProgram lowered(RexProgram program) {
        RexProgram p = ConstantLikeRewriter.rewrite(program, rexBuilder);
        return CheckedCastRewriter.rewrite(TimestampCastRewriter.rewrite(p, rexBuilder), rexBuilder);
    }

    /**
     * Generates again the calcs added since the last compile that test shared conjuncts, and generates the
     * evaluators of those conjuncts; returns the sets of shared conjuncts.
     */
    private List<SharedConjunctRewriter.Shared> generateShared() {
        List<SharedConjunctRewriter.Shared> sets = List.of();
        if (sharedConjuncts != null) {
            sharedConjuncts.plan(programs.stream().map(PendingProgram::program).toList(),
                    programs.stream().map(PendingProgram::source).toList());
            sets = sharedConjuncts.sets();
            sharedDescription = sharedConjuncts.describe();
        }
        for (PendingProgram p : programs) {
            RexProgram program = sharedConjuncts == null ? p.program()
                    : sharedConjuncts.rewrite(p.program(), p.source(), rexBuilder);
            if (program != p.program()) {
                classes.set(p.classIndex(), generate(p.name(), lowered(program)));
            }
        }
        programs.clear();
        for (SharedConjunctRewriter.Shared set : sets) {
            String name = "Shared" + classes.size();
            classes.add(generateEvaluator(name, set));
            evaluatorClasses.put(set.setName(), PACKAGE + "." + unitName + "$" + name);
        }
        return sets;
    }

    /** A {@link SharedConjuncts.Evaluator} of the set's conjuncts: {@code test(in, k)} evaluates conjunct k. */
    private ClassDeclaration generateEvaluator(String name, SharedConjunctRewriter.Shared set) {
        ParameterExpression in = Expressions.parameter(Object[].class, INPUT);
        ParameterExpression k = Expressions.parameter(int.class, "k");
        List<MemberDeclaration> members = new ArrayList<>();
        members.add(Expressions.fieldDecl(Modifier.PRIVATE | Modifier.FINAL, DataContext.ROOT,
                Expressions.new_(StreamDataContext.class, Expressions.call(TimeZone.class, "getTimeZone",
                        Expressions.constant(timeZone)))));
        BlockBuilder dispatch = new BlockBuilder();
        RelDataType none = typeFactory.builder().build();
        for (int i = 0; i < set.conjuncts().size(); i++) {
            RexProgram program = lowered(RexProgram.create(set.inputType(), List.of(), set.conjuncts().get(i), none,
                    rexBuilder));
            BlockBuilder body = new BlockBuilder();
            Expression condition = RexToLixTranslator.translateCondition(program, typeFactory, body,
                    new RowInputGetter(in, program.getInputRowType(), typeFactory), null, conformance);
            body.add(Expressions.return_(null, condition));
            dispatch.add(Expressions.ifThen(Expressions.equal(k, Expressions.constant(i)), body.toBlock()));
        }
        dispatch.add(Expressions.throw_(Expressions.new_(IllegalArgumentException.class)));
        members.add(Expressions.methodDecl(Modifier.PUBLIC, boolean.class, "test", List.of(in, k),
                dispatch.toBlock()));
        return Expressions.classDecl(Modifier.PUBLIC | Modifier.STATIC | Modifier.FINAL, name, null,
                List.of(SharedConjuncts.Evaluator.class), members);
    }

    /** For EXPLAIN: the conjuncts evaluated once per row for several calcs, one line each (empty when none). */
    public List<String> sharedPredicates() {
        return sharedDescription;
    }

    private ClassDeclaration generate(String name, RexProgram program) {
        ParameterExpression in = Expressions.parameter(Object[].class, INPUT);
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
        List<SharedConjunctRewriter.Shared> shared = generateShared();
        ClassDeclaration unit = Expressions.classDecl(Modifier.PUBLIC | Modifier.FINAL, unitName, null, List.of(),
                new ArrayList<>(classes));
        // Hoists per-row constant work (new LikeFunction(), calls on literals) into static final fields.
        unit = (ClassDeclaration) unit.accept(ClassDeclarationFinder.create());
        source = "package " + PACKAGE + ";\n\n" + Expressions.toString(unit);
        ClassLoader loader = load(source);
        if (patternSets != null) {
            patternSets.register();
        }
        if (eventPatterns != null) {
            eventPatterns.register();
        }
        for (SharedConjunctRewriter.Shared set : shared) {
            CompiledCalc evaluator = new CompiledCalc(evaluatorClasses.get(set.setName()));
            evaluator.load(loader);
            SharedConjuncts.register(set.setName(), set.conjuncts().size(),
                    () -> (SharedConjuncts.Evaluator) evaluator.instance());
        }
        for (CompiledCalc calc : pending) {
            calc.load(loader);
        }
        pending.clear();
    }

    /** The classes of {@code source}: those the code cache kept, else compiled (and then kept). */
    private ClassLoader load(String source) {
        CompiledCodeCache.Key key = codeCache == null ? null : CompiledCodeCache.key(source, classLoader);
        Map<String, byte[]> cached = key == null ? null : codeCache.get(key);
        if (cached != null) {
            return new ByteArrayClassLoader(cached, classLoader);
        }
        SimpleCompiler compiler = new SimpleCompiler();
        compiler.setParentClassLoader(classLoader);
        try {
            compiler.cook(source);
        } catch (Exception e) {
            throw new PlanningException(null, "generated expression code does not compile: " + e.getMessage()
                    + "\n" + source, e);
        }
        if (key != null) {
            codeCache.put(key, compiler.getBytecodes());
        }
        return compiler.getClassLoader();
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

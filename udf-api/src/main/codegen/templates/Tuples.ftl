<#-- Flink's Tuple0..Tuple25 differ only in their arity, so one template writes them all. -->
<#-- each(n, "T# f#") is "T0 f0, T1 f1, ..." up to n - 1. -->
<#function each n pattern>
  <#local parts = []>
  <#list 0..<n as i>
    <#local parts = parts + [pattern?replace("#", i?c)]>
  </#list>
  <#return parts?join(", ")>
</#function>
<@pp.dropOutputFile />
<#list 0..maxArity as n>
<#assign name = "Tuple" + n?c>
<#assign typed = name + (n > 0)?then("<" + each(n, "T#") + ">", "")>
<#assign params = each(n, "T# f#")>
<@pp.changeOutputFile name="/org/apache/flink/api/java/tuple/${name}.java" />
package org.apache.flink.api.java.tuple;

/** A tuple of ${n} field${(n == 1)?then("", "s")} (Flink API). */
public class ${typed} extends Tuple {

    private static final long serialVersionUID = 1L;
<#list 0..<n as i>

    /** Field ${i}. */
    public T${i} f${i};
</#list>

    public ${name}() {
    }
<#if n gt 0>

    public ${name}(${params}) {
<#list 0..<n as i>
        this.f${i} = f${i};
</#list>
    }

    public static <${each(n, "T#")}> ${typed} of(${params}) {
        return new ${name}<>(${each(n, "f#")});
    }

    public void setFields(${params}) {
<#list 0..<n as i>
        this.f${i} = f${i};
</#list>
    }
<#else>

    public static ${name} of() {
        return new ${name}();
    }
</#if>

    @Override
    public int getArity() {
        return ${n};
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getField(int pos) {
        switch (pos) {
<#list 0..<n as i>
            case ${i}:
                return (T) this.f${i};
</#list>
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> void setField(T value, int pos) {
        switch (pos) {
<#list 0..<n as i>
            case ${i}:
                this.f${i} = (T${i}) value;
                break;
</#list>
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public ${typed} copy() {
        return new ${name}<#if n gt 0><></#if>(${each(n, "this.f#")});
    }
}
</#list>

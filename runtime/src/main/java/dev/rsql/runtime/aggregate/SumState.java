package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.Numbers;

import java.math.BigDecimal;

/**
 * The running sum shared by SUM and AVG: kept as BIGINT for integral input, DOUBLE for approximate input and DECIMAL
 * for exact decimals, next to the count of non-null values.
 */
final class SumState {

    private final DataType sumType;

    SumState(DataType inputType) {
        if (Numbers.isIntegral(inputType)) {
            sumType = DataType.of(DataType.Kind.BIGINT).notNull();
        } else if (Numbers.isApproximate(inputType)) {
            sumType = DataType.of(DataType.Kind.DOUBLE).notNull();
        } else {
            sumType = DataType.decimal(38, inputType.scale()).notNull();
        }
    }

    DataType sumType() {
        return sumType;
    }

    Object zero() {
        switch (sumType.kind()) {
            case BIGINT:
                return 0L;
            case DOUBLE:
                return 0.0;
            default:
                return BigDecimal.ZERO.setScale(sumType.scale());
        }
    }

    Object add(Object sum, Object value, int sign) {
        switch (sumType.kind()) {
            case BIGINT:
                return (Long) sum + sign * Numbers.toLong(value);
            case DOUBLE:
                return (Double) sum + sign * Numbers.toDouble(value);
            default:
                BigDecimal d = Numbers.toDecimal(value);
                return sign > 0 ? ((BigDecimal) sum).add(d) : ((BigDecimal) sum).subtract(d);
        }
    }

    Object result(Object sum, DataType resultType) {
        switch (sumType.kind()) {
            case BIGINT:
                return Numbers.fromLong((Long) sum, resultType);
            case DOUBLE:
                return Numbers.fromDouble((Double) sum, resultType);
            default:
                return Numbers.fromDecimal((BigDecimal) sum, resultType);
        }
    }
}

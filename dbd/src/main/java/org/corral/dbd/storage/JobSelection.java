package org.corral.dbd.storage;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A WHERE clause built from conditions with their values bound as parameters, never spliced
 * into the SQL text: names, accounts and the like come from users.
 */
public final class JobSelection {
  private final List<String> conditions = new ArrayList<>();
  private final List<Object> values = new ArrayList<>();

  /** {@code column} equals one of {@code vals} (nothing added for an empty list). */
  public JobSelection in(String column, Collection<?> vals) {
    if (!vals.isEmpty()) {
      conditions.add(column + " IN (" + String.join(", ", java.util.Collections.nCopies(vals.size(), "?")) + ")");
      values.addAll(vals);
    }
    return this;
  }

  /** A condition with its {@code ?} placeholders and their values, in order. */
  public JobSelection where(String condition, Object... vals) {
    conditions.add(condition);
    values.addAll(List.of(vals));
    return this;
  }

  /** An independent copy, to add conditions to. */
  public JobSelection copy() {
    JobSelection c = new JobSelection();
    c.conditions.addAll(conditions);
    c.values.addAll(values);
    return c;
  }

  String where() {
    return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
  }

  void bind(PreparedStatement st) throws SQLException {
    for (int i = 0; i < values.size(); i++) {
      Object v = values.get(i);
      switch (v) {
        case String s -> st.setString(i + 1, s);
        case Integer n -> st.setLong(i + 1, n);
        case Long n -> st.setLong(i + 1, n);
        default -> throw new IllegalArgumentException("unsupported parameter " + v.getClass());
      }
    }
  }
}

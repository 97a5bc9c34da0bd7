extension SecretFieldState {
  /// Judges the field's text with `judge`, inside the text's read window: for
  /// a strength line under a new password, after each edit.
  ///
  /// Reads the text in place (``StrengthJudge`` copies nothing out of secure
  /// memory). Pass a ``StrengthBudget`` a keystroke can afford while typing,
  /// and ``StrengthBudget/unlimited`` before accepting the password.
  ///
  /// - Complexity: as ``StrengthJudge/judge(utf8:budget:)``, plus the text's
  ///   window.
  public func strength(
    judgedBy judge: inout StrengthJudge, budget: StrengthBudget = .unlimited
  ) -> PasswordStrength {
    withSecret { judge.judge(utf8: $0, budget: budget) }
  }
}

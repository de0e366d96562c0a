"""Django's own words that the app's pages show: the sign-up, log-in and password pages' labels and
refusals, the form errors Django writes, and the months in dates. They are marked here so that
the app's catalogues carry them (``make messages`` finds them) in the app's words and register:
the app's catalogues come before Django's (LOCALE_PATHS), so one page speaks one language in one
register (tú in Spanish, 你 in Chinese, "senha" in Portuguese) even where Django's catalogue
speaks another or lacks the sentence (its Chinese one has an outdated "password too short").

Nothing imports this module at run time: Django translates these strings where it uses them.
tests/companion/test_django_words.py checks that Django still uses each one, word for word."""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

DJANGO_WORDS = (
    # Forms (django/forms): what a refused field says.
    gettext_noop("This field is required."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Select a valid choice. That choice is not one of the available choices."),
    gettext_noop("No file was submitted. Check the encoding type on the form."),
    gettext_noop("No file was submitted."),
    gettext_noop("The submitted file is empty."),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
    # Accounts (django/contrib/auth): sign-up, log-in, password change and reset.
    gettext_noop("username"),
    gettext_noop("email address"),
    gettext_noop("Email"),
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("This account is inactive."),
    gettext_noop("Old password"),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("A user with that username already exists."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ "
        "characters."
    ),
    # The password rules (django/contrib/auth/password_validation.py).
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),
    # The months in dates (django/utils/dates.py): Brazilian Portuguese writes them in lower case
    # ("1 de dezembro de 2026"), where Django's catalogue capitalizes them.
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)

"""Accounts, groups and their rosters, the groups' own scoring tables, and starting a game."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.views import PasswordResetView
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_htmx.http import HttpResponseClientRefresh

from companion.display import either, joined
from companion.forms.confirmations import ConfirmationsForm
from companion.forms.games import SEATS, GameForm
from companion.forms.groups import (
    GroupForm,
    MemberForm,
    PlayerAccountForm,
    PlayerForm,
    RetireForm,
    RoleForm,
    SeatedPlayerForm,
    SignupForm,
)
from companion.forms.tables import ScoringTableForm
from companion.game_lists import RECENT_GAMES, rows_of
from companion.models import (
    Game,
    GameSummary,
    Group,
    LadderTally,
    LastAdmin,
    LastMember,
    ScoringTable,
)
from companion.throttling import minutes_until, reset_refused_until, signup_refused_until
from companion.views.methods import page_and_form, require_POST, require_safe
from companion.views.previews import previewing
from scoring import PRESETS, Band, GameError, Side, TableError

# Changes on a page of the group's log: a few years of a weekly group's changes.
LOG_PAGE_SIZE = 50
# The preview's axis runs from 0 to at least 215: the open-ended last band gets some room.
PREVIEW_AXIS_END = 220


def safe_next(request: HttpRequest) -> str:
    """The ``next`` URL of a login-like form, if it is a path on this site; else ""."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    # Only a path: ``redirect`` takes a bare word such as "0" for a view's name, and fails.
    return url if allowed and url.startswith("/") else ""


@page_and_form
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in with it; then on to ``next`` (a group's invite) or home."""
    next_url = safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and (until := signup_refused_until(request)):
        minutes = minutes_until(until)
        form.add_error(
            None,
            ngettext(
                "Too many accounts were made in the last hour: try again in %(minutes)d minute.",
                "Too many accounts were made in the last hour: try again in %(minutes)d minutes.",
                minutes,
            )
            % {"minutes": minutes},
        )
        context = {"form": form, "next": next_url}
        return render(request, "registration/signup.html", context, status=429)
    if form.is_valid():
        user = form.save()
        # The account was just made: nothing for django-axes (the first backend) to check.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@page_and_form
def password_reset(request: HttpRequest) -> HttpResponse:
    """Django's password reset, a few times an hour from one address (each sends a mail)."""
    if request.method == "POST" and (until := reset_refused_until(request)):
        form = PasswordResetForm(request.POST)
        minutes = minutes_until(until)
        form.add_error(
            None,
            ngettext(
                "Too many password resets were asked for in the last hour: try again in "
                "%(minutes)d minute.",
                "Too many password resets were asked for in the last hour: try again in "
                "%(minutes)d minutes.",
                minutes,
            )
            % {"minutes": minutes},
        )
        return render(request, "registration/password_reset_form.html", {"form": form}, status=429)
    return PasswordResetView.as_view()(request)


@page_and_form
@login_required
def group_new(request: HttpRequest) -> HttpResponse:
    form = GroupForm(request.POST or None)
    if form.is_valid():
        return redirect(Group.found(form.cleaned_data["name"], by=request.user))
    return render(request, "companion/group_new.html", {"form": form})


def member_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view of group ``pk`` for its members, given the group: anyone else gets 404, as if
    there were no such group."""

    @wraps(view)
    @login_required
    def checked(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
        group = get_object_or_404(Group.objects.for_member(request.user), pk=pk)
        return view(request, group, *args, **kwargs)

    return checked


def admin_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view of group ``pk`` for its admins alone: how the group is kept, who is in it, and the
    link that lets people in. Every member records, plays and adds players; a member who is not
    an admin is refused (403) and told whom to ask."""

    @member_required
    @wraps(view)
    def checked(request: HttpRequest, group: Group, *args, **kwargs) -> HttpResponse:
        if not group.is_admin(request.user):
            return refuse_non_admin(request, group)
        return view(request, group, *args, **kwargs)

    return checked


@page_and_form
@member_required
def group(request: HttpRequest, group: Group) -> HttpResponse:
    """A group: its roster, to which its form adds players, its games, its scoring tables, its
    members, the link that invites people in, its name and whether each hand needs an
    opponent's confirmation. Each other change has its own URL (the views below)."""
    form = PlayerForm(group=group)
    if request.method == "POST":
        form = PlayerForm(request.POST, group=group)
        if form.is_valid():
            player = form.save()
            if not request.htmx:
                messages.success(request, _("%(name)s is on the roster.") % {"name": player})
                return redirect(group)
            form = PlayerForm(group=group)
        if request.htmx:
            form.focus()
    return group_page(request, group, form=form)


def group_page(
    request: HttpRequest,
    group: Group,
    *,
    form: PlayerForm | None = None,
    retire_form: RetireForm | None = None,
    rename_form: GroupForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The group's page, or its roster alone for htmx, with the forms given as they are."""
    template = "companion/group.html"
    roster = list(group.players.select_related("user"))
    context = {
        "group": group,
        "form": form or PlayerForm(group=group),
        "players": [player for player in roster if not player.retired],
        "retired": [player for player in roster if player.retired],
        "retire_form": retire_form or RetireForm(group=group),
        "account_form": PlayerAccountForm(group=group, user=request.user),
        "confirmations_form": ConfirmationsForm(
            initial={"hands_need_confirmation": group.hands_need_confirmation}
        ),
        "is_admin": group.is_admin(request.user),
    }
    if request.htmx:
        return render(request, template + "#roster", context, status=status)
    # Each of the latest games where it stands, from the ladder's summaries: no hand is read.
    latest = GameSummary.newest_first(group).values_list("game_id", flat=True)[:RECENT_GAMES]
    memberships = group.memberships()
    admins = [membership for membership in memberships if membership.is_admin]
    context |= {
        "games": rows_of(list(latest), {player.pk: player for player in roster}),
        "games_count": LadderTally.games_of(group),
        "tables": group.scoring_tables.all(),
        # A club night under way: the phones at its tables find it first thing.
        "evening": group.evenings.filter(ended=None).order_by("-created").first(),
        "memberships": memberships,
        "admins": admins,
        "admin_names": joined([membership.user.username for membership in admins]),
        "invite_url": request.build_absolute_uri(reverse("group_join", args=[group.invite_token])),
        "rename_form": rename_form or GroupForm(instance=group, prefix="group"),
    }
    return render(request, template, context, status=status)


def refuse_non_admin(request: HttpRequest, group: Group) -> HttpResponse:
    """The group page again, saying that only its admins may do that: nothing changed."""
    messages.error(
        request,
        _("Only the group's admins can do that: ask %(admins)s.")
        % {"admins": either(group.admin_names())},
    )
    if request.htmx:
        # A fragment would hide the message: htmx reloads the page instead, whatever the status.
        response = HttpResponseClientRefresh()
        response.status_code = 403
        return response
    return group_page(request, group, status=403)


@require_POST
@admin_required
def rename_group(request: HttpRequest, group: Group) -> HttpResponse:
    form = GroupForm(request.POST, instance=group, prefix="group")
    if form.is_valid():
        group.rename(form.cleaned_data["name"], by=request.user)
        messages.success(request, _("Renamed the group %(name)s.") % {"name": group})
        return redirect(group)
    group.refresh_from_db(fields=["name"])  # the form wrote the refused name on it
    return group_page(request, group, rename_form=form)


@require_POST
@member_required
def claim_player(request: HttpRequest, group: Group) -> HttpResponse:
    """Say which player on the roster is you, or that none is."""
    form = PlayerAccountForm(request.POST, group=group, user=request.user)
    if form.is_valid() and form.save():
        player = form.cleaned_data["player"]
        if player is None:
            messages.success(request, _("You are no longer on the roster."))
        else:
            messages.success(request, _("You are %(name)s on the roster.") % {"name": player})
    else:
        messages.error(request, _("That player is someone else's."))
    return redirect(group)


@require_POST
@admin_required
def retire_player(request: HttpRequest, group: Group) -> HttpResponse:
    return _retire(request, group, back=False)


@require_POST
@admin_required
def bring_back_player(request: HttpRequest, group: Group) -> HttpResponse:
    return _retire(request, group, back=True)


def _retire(request: HttpRequest, group: Group, *, back: bool) -> HttpResponse:
    """Retire the chosen player, or bring them back; for htmx, the roster again (with the
    form's complaint if the choice was refused)."""
    form = RetireForm(request.POST, group=group, back=back)
    if not form.is_valid():
        if not request.htmx:
            messages.error(request, form.errors["player"][0])
            return redirect(group)
        # A refused bring-back has no form to show it beside: the roster shows who is back.
        return group_page(request, group, retire_form=None if back else form)
    player = form.cleaned_data["player"]
    player.retire(not back, by=request.user)
    if request.htmx:
        return group_page(request, group)
    if back:
        message = _("%(name)s is back on the roster.")
    else:
        message = _("%(name)s is retired: their games stay in the history.")
    messages.success(request, message % {"name": player})
    return redirect(group)


@require_POST
@admin_required
def remove_member(request: HttpRequest, group: Group) -> HttpResponse:
    """Remove another member of the group."""
    form = MemberForm(request.POST, group=group, user=request.user)
    if not form.is_valid():
        messages.error(request, form.errors["member"][0])
        return redirect(group)
    return _take_out(request, group, form.cleaned_data["member"], leaving=False)


@require_POST
@member_required
def leave_group(request: HttpRequest, group: Group) -> HttpResponse:
    return _take_out(request, group, request.user, leaving=True)


def _take_out(request: HttpRequest, group: Group, member, *, leaving: bool) -> HttpResponse:
    """Take a member out of the group: never its last member, who could not come back (nobody
    could invite them), nor its last admin while others remain."""
    try:
        group.remove_member(member, by=request.user)
    except LastMember:
        messages.error(
            request,
            _("You are the only member of %(group)s: invite someone before you leave it.")
            % {"group": group},
        )
        return redirect(group)
    except LastAdmin:
        messages.error(
            request,
            _(
                "You are the only admin of %(group)s: make another member an admin before you "
                "leave it."
            )
            % {"group": group},
        )
        return redirect(group)
    if leaving:
        messages.success(request, _("You left %(group)s.") % {"group": group})
        return redirect("home")
    messages.success(
        request,
        _("%(name)s is no longer a member of %(group)s.") % {"name": member, "group": group},
    )
    return redirect(group)


@require_POST
@admin_required
def make_admin(request: HttpRequest, group: Group) -> HttpResponse:
    """Make a member an admin (``admin=yes``), or no longer one (``admin=no``): another admin
    too, or oneself (stepping down), but never the last admin."""
    form = RoleForm(request.POST, group=group)
    if not form.is_valid():
        messages.error(request, next(iter(form.errors.values()))[0])
        return redirect(group)
    member, admin = form.cleaned_data["member"], form.cleaned_data["admin"]
    try:
        group.make_admin(member, admin, by=request.user)
    except LastAdmin:
        messages.error(
            request,
            _("You are the only admin: make another member an admin before you step down."),
        )
        return redirect(group)
    if admin:
        said = _("%(name)s is an admin of %(group)s.")
    elif member == request.user:
        said = _("You are no longer an admin of %(group)s.")
    else:
        said = _("%(name)s is no longer an admin of %(group)s.")
    messages.success(request, said % {"name": member, "group": group})
    return redirect(f"{group.get_absolute_url()}#members")


@require_POST
@admin_required
def ask_for_confirmations(request: HttpRequest, group: Group) -> HttpResponse:
    """Turn second-seat confirmation on or off."""
    form = ConfirmationsForm(request.POST)
    form.is_valid()  # a checkbox: ticked or not, never invalid
    asked = form.cleaned_data["hands_need_confirmation"]
    if asked != group.hands_need_confirmation:
        group.ask_for_confirmations(asked, by=request.user)
        if asked:
            said = _(
                "From now on each hand waits for an opponent's confirmation on their own phone."
            )
        else:
            said = _("Hands no longer wait for a confirmation: each counts as it is entered.")
        messages.success(request, said)
    return redirect(f"{group.get_absolute_url()}#confirmations")


@require_POST
@admin_required
def new_invite(request: HttpRequest, group: Group) -> HttpResponse:
    """Replace the invite link: the old one no longer lets anyone in."""
    group.new_invite(by=request.user)
    messages.success(request, _("Made a new invite link: the old one no longer works."))
    return redirect(group)


@require_safe
@login_required
def group_log(request: HttpRequest, pk: int) -> HttpResponse:
    """Every change to the group's settings, members, roles and links: who, when and what,
    newest first, a page at a time."""
    group = get_object_or_404(Group.objects.for_member(request.user), pk=pk)
    changes = group.changes.select_related("player", "game").prefetch_related("game__seats__player")
    page = Paginator(changes, LOG_PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [(change, change.sentence()) for change in page]
    return render(request, "companion/group_log.html", {"group": group, "page": page, "rows": rows})


@page_and_form
@login_required
def group_join(request: HttpRequest, token: str) -> HttpResponse:
    """Join a group by its invite link: a member is sent on, anyone else confirms first."""
    group = get_object_or_404(Group, invite_token=token)
    if group.has_member(request.user):
        return redirect(group)
    if request.method == "POST":
        group.join(request.user)
        messages.success(request, _("Welcome to %(group)s.") % {"group": group})
        return redirect(group)
    return render(request, "companion/group_join.html", {"group": group})


@page_and_form
@admin_required
def table_new(request: HttpRequest, group: Group) -> HttpResponse:
    return scoring_table_page(request, group, None)


@page_and_form
@admin_required
def table_edit(request: HttpRequest, group: Group, table_id: int) -> HttpResponse:
    table = get_object_or_404(ScoringTable, pk=table_id, group=group)
    return scoring_table_page(request, group, table)


def scoring_table_page(
    request: HttpRequest, group: Group, table: ScoringTable | None
) -> HttpResponse:
    """The scoring table's form, for a new table or an existing one.

    Its POST saves, unless it asks for a preview (``previews``) or a button asks for one
    more band (``action=add``). ``?preset=NAME`` fills the rows from a preset; a new table
    starts from the standard one.
    """
    template = "companion/table_form.html"
    if request.method == "POST":
        form = ScoringTableForm(request.POST, group=group, table=table)
        preview = form.preview_bands()
        if request.POST.get("action") == "add":
            form = form.with_new_band()
            if request.htmx:
                template += "#bands"
        elif previewing(request):
            if request.htmx:
                template += "#table-preview"
        elif form.is_valid():
            rules = form.cleaned_data["rules"]
            group.keep_table(table, rules, by=request.user)
            messages.success(request, _("Saved the table %(name)s.") % {"name": rules.name})
            return redirect(group)
    else:
        preset = PRESETS.get(request.GET.get("preset", ""))
        if preset is None and table is None:
            preset = PRESETS["standard"]
        form = ScoringTableForm(group=group, table=table, start=preset)
        preview = form.preview_bands()
    context = {
        "group": group,
        "table": table,
        "form": form,
        "presets": list(PRESETS),
        "preview": table_preview(preview),
    }
    return render(request, template, context)


def table_preview(bands: list[Band]) -> list[dict]:
    """The bands as segments of a bar from 0 to 200+, each as wide as the points it holds
    (the open-ended last band running to the axis' end), shaded by its side and levels."""
    if not bands:
        return []
    tops = [band.high + 5 if band.high is not None else band.low + 20 for band in bands]
    end = max(PREVIEW_AXIS_END, *tops)
    segments = []
    for band, top in zip(bands, tops, strict=True):
        low = max(band.low, 0)
        high = top if band.high is not None else end
        declarers = band.winner is Side.DECLARERS
        # 15% darker a level: dark text on 65% and lighter, white on 50% and darker, each at
        # 4.5:1 or more (WCAG AA) in both sides' hues.
        lightness = max(30, 80 - 15 * band.levels)
        climb = f"+{band.levels}"
        segments.append(
            {
                "band": band,
                "declarers": declarers,
                "label": band.label,
                "climb": f"{climb}…" if band.every else climb,
                "weight": max(high - low, 5),
                "style": (
                    f"background-color: hsl({215 if declarers else 0} 70% {lightness}%);"
                    f" color: {'#fff' if lightness < 60 else '#212529'};"
                ),
            }
        )
    return segments


@page_and_form
@login_required
def game_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Start a game: four to eight players of the roster in play order, the rules, the table.

    The page can add a missing player (``action=add_player``): they join the roster, take the
    first empty seat, and the choices made so far are kept. A preview (``previews``) shows the
    table the choices make so far.
    """
    group = get_object_or_404(Group.objects.for_member(request.user), pk=pk)
    player_form = SeatedPlayerForm(group=group)
    template = "companion/game_new.html"
    if request.method == "POST" and request.POST.get("action") == "add_player":
        form = GameForm(group=group)
        chosen = {name: request.POST.get(name, "") for name in form.fields}
        player_form = SeatedPlayerForm(request.POST, group=group)
        if player_form.is_valid():
            player = player_form.save()
            empty = next((seat for seat in SEATS if not chosen[seat]), None)
            if empty is not None:
                chosen[empty] = str(player.pk)
                # Their seat is shown: at least as many play as the seats up to it.
                shown, count = SEATS.index(empty) + 1, chosen["players"]
                if not count.isdigit() or int(count) < shown:
                    chosen["players"] = str(shown)
            if not request.htmx:
                url = reverse("game_new", args=[group.pk])
                return redirect(f"{url}?{urlencode(chosen)}")
            player_form = SeatedPlayerForm(group=group)
            if request.htmx:
                player_form.focus()
        form = GameForm(initial=chosen, group=group)
    elif request.method == "POST":
        form = GameForm(request.POST, group=group)
        if previewing(request):
            form.is_valid()
            if request.htmx:
                return render(request, template + "#table-summary", {"group": group, "form": form})
        elif form.is_valid():
            try:
                game = Game.start(group, **form.start_args(), by=request.user)
            except (TableError, GameError) as error:
                form.add_scoring_error(error)
            else:
                return redirect(game)
    else:
        form = GameForm(group=group)
        form.initial = {name: request.GET[name] for name in form.fields if name in request.GET}
    if request.htmx:
        template += "#game-form"
    context = {"group": group, "form": form, "player_form": player_form}
    return render(request, template, context)

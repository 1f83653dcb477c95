"""The directive reader's question in Spanish, French, German, Chinese, Russian, Japanese,
Portuguese and Korean.

``engine/cue_directive.py`` asks of each sentence: is it a directive (an imperative, an
obligation, a purpose kept from the user) whose object lies outside the tool's own job? This
module asks the same of a sentence in one of the six languages ``engine/cue_lang.py``'s families
cover, with each language's own words for the two halves: a directive form and an outside
object (the model's earlier instructions or its system prompt, the whole conversation, secrets
with a quantifier or an owner, environment variables). A sentence needs both, in the same
language; a purpose kept from the user ("sin informar al usuario", "不要告诉用户") counts alone,
as in English. A tool saying what it does names none of those objects ("执行 shell 命令并返回
stdout", "Возвращает список пользователей").

Linear: each pattern is an alternation of literal words with bounded gaps (``{0,N}`` over one
character class), run once over a sentence the English reader has already cut; a Latin-script
sentence with none of the gate words is not read.
"""

from __future__ import annotations

import re

__all__ = ["lang_directive"]

_I = re.I

# Each language's directive forms: strong ones (an obligation, please, always/never, an
# imperative no other person shares) and weak ones (an imperative that is also the third person
# a tool describes itself in: es "muestra", fr "affiche", zh "显示" are "it shows"). A weak
# form counts only with the model's own instructions or its system prompt, which no tool's
# account of its job names.
_STRONG_FORMS: dict[str, re.Pattern[str]] = {
    "es": re.compile(
        r"\b(?:debes|deber[aá]s|tienes que|hay que|es obligatorio|siempre|nunca|por favor|"
        r"ignorar|env[ií]ale|incl[uú]yelo|mu[eé]strame|l[eé]elo)\b",
        _I,
    ),
    "fr": re.compile(
        r"\b(?:vous devez|tu dois|il faut|toujours|jamais|ignorez|ignorer|oubliez|envoyez|"
        r"incluez|r[ée]v[ée]lez|affichez|lisez|ex[ée]cutez|appelez|copiez|transf[ée]rez)\b",
        _I,
    ),
    "de": re.compile(
        r"\b(?:du musst|sie müssen|musst|müssen|immer|niemals|ignoriere|ignorieren|vergiss|"
        r"sende|schicke|füge|zeige|gib|lies|führe|rufe|kopiere|leite)\b",
        _I,
    ),
    # "告诉我" (tell me) is a user's request to the model; a tool's text never says it
    "zh": re.compile(r"必须|务必|请|总是|始终|一定要|不要|切勿|立即|告诉我"),
    "ru": re.compile(
        r"(?<!\w)(?:ты должен|вы должны|должен|должны|необходимо|нужно|обязательно|всегда|"
        r"никогда|игнорируй(?:те)?|забудь(?:те)?|отправь(?:те)?|покажи(?:те)?|выведи(?:те)?|"
        r"прочитай(?:те)?|выполни(?:те)?|вызови(?:те)?|перешли(?:те)?|повтори(?:те)?|"
        r"воспроизведи(?:те)?|напечатай(?:те)?|напиши(?:те)?|раскрой(?:те)?|перечисли(?:те)?)(?!\w)",
        _I,
    ),
    "ja": re.compile(
        r"してください|しなさい|必ず|常に|決して|表示して|送信して|出力して|教えて|実行して|"
        r"呼び出して|転送して"
    ),
    "pt": re.compile(
        r"\b(?:me (?:diga|mostre|d[êe]|passe|envie)|mostre-me|revele|liste|envie|esque[çc]a|"
        r"voc[êe] deve|sempre|nunca|por favor)\b",
        _I,
    ),
    # ko: the imperative and request endings, an obligation, always / never
    "ko": re.compile(r"하세요|하십시오|하라|해라|해야 (?:합니다|한다)|반드시|항상|절대"),
}
_WEAK_FORMS: dict[str, re.Pattern[str]] = {
    "es": re.compile(r"\b(?:ignora|olvida|omite|muestra|revela)\b", _I),
    "fr": re.compile(r"\b(?:ignore|oublie|affiche|r[ée]v[èe]le)\b", _I),
    "zh": re.compile(r"忽略|输出|显示|告诉"),
    "ja": re.compile(r"無視"),
}
_WEAK_OBJECTS = frozenset({"the model"})

_OBJECTS: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {
    "es": (
        (
            "the model",
            re.compile(
                r"\binstrucciones (?:anteriores|previas|originales|del? sistema)\b|"
                r"\btus instrucciones\b|\b(?:prompt|mensaje) del sistema\b",
                _I,
            ),
        ),
        (
            "the conversation",
            re.compile(
                r"\btoda la conversaci[oó]n\b|\bhistorial (?:del chat|de la conversaci)", _I
            ),
        ),
        (
            "secrets",
            re.compile(
                r"\b(?:todas? (?:las |los )?|sus |tus )(?:contraseñas|claves|credenciales|tokens|"
                r"secretos)\b|\bvariables de entorno\b|\bclaves? (?:de api|privadas?)\b",
                _I,
            ),
        ),
    ),
    "fr": (
        (
            "the model",
            re.compile(
                r"\binstructions (?:pr[ée]c[ée]dentes|ant[ée]rieures|originales|syst[èe]me)\b|"
                r"\b(?:prompt|message) (?:du )?syst[èe]me\b",
                _I,
            ),
        ),
        (
            "the conversation",
            re.compile(
                r"\btoute la conversation\b|\bhistorique (?:de la conversation|du chat)", _I
            ),
        ),
        (
            "secrets",
            re.compile(
                r"\b(?:tous les |toutes les |vos |tes )(?:mots de passe|cl[ée]s|identifiants|"
                r"jetons|secrets)\b|\bvariables d'environnement\b|\bcl[ée]s? (?:d'api|api|"
                r"priv[ée]es?)\b",
                _I,
            ),
        ),
    ),
    "de": (
        (
            "the model",
            re.compile(
                r"\b(?:vorherigen|bisherigen|früheren|ursprünglichen) (?:anweisungen|"
                r"instruktionen)\b|\bsystem-?prompt\b|\bsystemnachricht\b",
                _I,
            ),
        ),
        (
            "the conversation",
            re.compile(
                r"\b(?:gesamte|ganze) (?:konversation|unterhaltung|chat)\b|"
                r"\bgesprächsverlauf\b",
                _I,
            ),
        ),
        (
            "secrets",
            re.compile(
                r"\b(?:alle |deine |ihre )(?:passwörter|schlüssel|zugangsdaten|tokens|"
                r"geheimnisse)\b|\bumgebungsvariablen\b|\b(?:api|privaten?)-?schlüssel\b",
                _I,
            ),
        ),
    ),
    "zh": (
        (
            "the model",
            re.compile(
                r"(?:之前|以前|先前|上面|原来|原有|所有)(?:的)?(?:所有)?(?:的)?(?:指令|指示)|"
                r"系统提示词?|系统消息|"
                # the model's own prompt, state or prohibitions ("你的设定", "你的指令" are also
                # the user's settings and commands in a tool's help, so they are not here)
                r"你的\s{0,2}(?:system prompt|prompt|提示词|内部状态)|你被(?:禁止|要求|设定)"
            ),
        ),
        (
            "the conversation",
            re.compile(r"(?:所有|全部)(?:的)?(?:对话|聊天)(?:记录)?|对话历史|聊天记录"),
        ),
        (
            "secrets",
            re.compile(r"(?:所有|全部|用户)(?:的)?(?:密码|密钥|凭证|凭据|令牌)|环境变量|私钥"),
        ),
    ),
    "ru": (
        (
            "the model",
            re.compile(
                r"(?:предыдущ|прежн|предшествующ|исходн)\w{0,4} (?:инструкц|указани)\w{0,4}|"
                r"системн\w{0,3} (?:промпт|подсказк|сообщени)\w{0,3}|"
                r"(?:все|свои|твои|полученн\w{0,3}|скрыт\w{0,3}|секретн\w{0,3}|конфиденциальн\w{0,3}|"
                r"внутренн\w{0,3}) (?:\w{1,15} )?(?:инструкц|директив|указани)\w{0,4}|"
                r"(?:свой|твой|весь|свои|твои) (?:\w{1,15} )?промпт\w{0,2}|команд\w{0,2} систем\w{0,2}|которые ты (?:получил|видел)",
                _I,
            ),
        ),
        (
            "the conversation",
            re.compile(
                r"(?:всю|весь) (?:переписку|диалог|разговор|историю)|"
                r"истори\w{0,2} (?:чата|диалога|переписки)",
                _I,
            ),
        ),
        (
            "secrets",
            re.compile(
                r"(?:все|свои|ваши) (?:парол|ключ|токен|секрет)\w{0,3}|переменн\w{0,3} окружения|"
                r"закрыт\w{0,2} ключ",
                _I,
            ),
        ),
    ),
    "ja": (
        (
            "the model",
            re.compile(
                r"(?:以前|前|これまで|元|上記)の(?:すべての|全ての)?(?:指示|命令|指令)|"
                r"システムプロンプト|システムメッセージ"
            ),
        ),
        ("the conversation", re.compile(r"(?:すべて|全て)の(?:会話|対話)|会話履歴|チャット履歴")),
        (
            "secrets",
            re.compile(
                r"(?:すべて|全て|ユーザー)の(?:パスワード|APIキー|秘密鍵|トークン|認証情報)|環境変数"
            ),
        ),
    ),
    "ko": (
        (
            "the model",
            re.compile(
                r"(?:이전|기존|앞선|위의|모든)(?:의)?\s?(?:모든\s)?(?:지시|지침|명령)|"
                r"시스템\s?프롬프트|시스템\s?메시지"
            ),
        ),
        ("the conversation", re.compile(r"(?:모든|전체)\s?(?:대화|채팅)|대화\s?기록|채팅\s?기록")),
        (
            "secrets",
            re.compile(
                r"(?:모든|사용자의)\s?(?:비밀번호|API\s?키|토큰|자격\s?증명)|비밀\s?정보|"
                r"환경\s?변수|개인\s?키"
            ),
        ),
    ),
    "pt": (
        (
            "the model",
            re.compile(
                r"\b(?:system prompt|prompt do sistema|(?:seu|o seu|teu) prompt|(?:suas|tuas) "
                r"instruções|instruções (?:anteriores|internas|do sistema))\b|"
                r"\bconfigurações internas\b",
                _I,
            ),
        ),
        (
            "the conversation",
            re.compile(r"\btoda a conversa\b|\bhistórico (?:da conversa|do chat)\b", _I),
        ),
        (
            "secrets",
            re.compile(
                r"\b(?:todas as |suas |seus )(?:senhas|chaves|credenciais|tokens)\b|"
                r"\bvariáveis de ambiente\b|\bchaves? (?:de )?api\b",
                _I,
            ),
        ),
    ),
}

# Setting a secret up is the user's step, not a secret read out: "请在环境变量中设置你的 API Key",
# "環境変数 OPENAI_API_KEY を設定してください", "defina a variável de ambiente". A sentence with one of
# these verbs names no secret as an object the model is sent to.
_SETUP = re.compile(
    r"设置|配置|填写|填入|设定|設定|セット|установи|задай|укажи|설정|입력|지정|"
    r"\b(?:establece|configura|define|défini(?:ssez|r)|configurez|setze|setzen|konfiguriere|"
    r"defina|configure)\b",
    _I,
)

_KEPT_FROM_USER = re.compile(
    r"\bsin (?:informar|avisar|decir(?:le)?) al usuario\b|\bno (?:le )?(?:digas|informes|avises|"
    r"menciones) (?:nada )?al usuario\b"
    r"|\bsans (?:informer|pr[ée]venir) l'utilisateur\b|\bne (?:dites|dis|informez|pr[ée]venez) "
    r"(?:rien |pas )?(?:à )?l'utilisateur\b"
    r"|\bohne (?:den |dem )?(?:benutzer|nutzer)\w{0,2} zu (?:informieren|benachrichtigen)\b|"
    r"\b(?:dem|den) (?:benutzer|nutzer)\w{0,2} nicht (?:sagen|mitteilen|zeigen)\b"
    r"|不要(?:告诉|通知|让)用户|请勿(?:通知|告知|告诉)用户|勿告知用户"
    r"|не (?:сообщай|говори|показывай)\w{0,2} пользовател"
    r"|ユーザーに(?:伝え|知らせ|言わ|見せ)ない"
    r"|사용자에게\s?(?:알리지|말하지|언급하지|공개하지)\s?(?:마|말)",
    _I,
)

_GATE = (
    "instruc",
    "anweisung",
    "usuario",
    "utilisateur",
    "nutzer",
    "prompt",
    "contrase",
    "passw",
    "conversaci",
    "conversation",
    "konversation",
    "credencial",
    "identifiant",
    "zugangsdaten",
    "entorno",
    "environnement",
    "umgebung",
    "schlüssel",
    "historial",
    "historique",
    "conversa",
    "senha",
    "ambiente",
)


def lang_directive(sentence: str) -> tuple[str, ...]:
    """The outside classes a sentence in es/fr/de/zh/ru/ja directs the model to (each with its
    language: ``es:the model``), or ``("hidden purpose",)``; empty when it does neither."""
    if sentence.isascii():
        low = sentence.lower()
        if not any(g in low for g in _GATE):
            return ()
    if _KEPT_FROM_USER.search(sentence):
        return ("hidden purpose",)
    found: list[str] = []
    for lang, objects in _OBJECTS.items():
        strong = _STRONG_FORMS[lang].search(sentence) is not None
        weak = lang in _WEAK_FORMS and _WEAK_FORMS[lang].search(sentence) is not None
        if not (strong or weak):
            continue
        found += [
            f"{lang}:{name}"
            for name, pat in objects
            if (strong or name in _WEAK_OBJECTS)
            and pat.search(sentence)
            and not (name == "secrets" and _SETUP.search(sentence))
        ]
    return tuple(found)

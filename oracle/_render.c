/* C twin of oracle/render_rows.py's per-image renderer (the "###   @N=value" lines of one row image).
 *
 * render_rows(rows, header, images, mariadb) -> bytes | None
 *   a whole rows event: per row the header line ("### INSERT INTO `s`.`t`"...), then each image of
 *   images, a tuple of (key, clause, columns): key None when the row is the image (write,
 *   delete), "before_image" / "after_image" for updates
 * render_image(clause, columns, values, mariadb) -> bytes | None
 *   one image (the fallback path renders events image by image when render_rows hands one back)
 *   clause:  b"### SET\n" or b"### WHERE\n", written first
 *   columns: tuple of (kind, param, head, tail, null_line) per present column, built once per
 *            table and present-bitmap by render_rows.Table.fast_columns from ColumnStyle.fast
 *   values:  the image's canonical values (list)
 *   mariadb: quote as MariaDB does (control bytes only) instead of MySQL
 *
 * The Python printers are the reference. This module handles the common value shapes of the
 * common kinds and returns None for anything else (an unknown kind, an unexpected value shape, a
 * value out of the plain range), and render_rows.py then renders that event or image. It never
 * raises for a value: only MemoryError and the TypeError of a wrong call reach the caller.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Kinds: keep in step with render_rows.py's FAST_* constants. */
enum {
    K_NONE = 0,      /* not handled here: Python renders the image */
    K_INT = 1,       /* param = width in bytes: '%d' or '-1 (4294967295)' */
    K_FLOAT = 2,     /* '%-20g' */
    K_DOUBLE = 3,    /* '%-.20g' */
    K_QUOTED = 4,    /* quoted(raw_bytes(v)): str, or {"value": hex} */
    K_TEXT = 5,      /* v["value"] as is (DECIMAL, TIMESTAMP2, DATETIME) */
    K_QUOTED_UNSIGNED_TEXT = 6, /* quoted(v["value"].lstrip("-")) */
    K_QUOTED_TEXT = 7,     /* quoted(v["value"]) */
    K_DATE = 8,      /* 'YYYY:MM:DD' from v["value"] "YYYY-MM-DD" */
    K_YEAR = 9,      /* '%04d' % (v or 1900) */
    K_ENUM = 10,     /* '%d' */
    K_BIT = 11,      /* param = number of bits (1..64): b'...' */
    K_SET = 12,      /* param = number of bytes (1..8): b'...' of the little-endian bytes */
    K_JSON = 13,     /* quoted(v["value"]) for {"type": "json"} not starting with '"' */
};

typedef struct {
    char *data;
    Py_ssize_t len, cap;
} Buf;

static int buf_reserve(Buf *b, Py_ssize_t extra) {
    if (extra > PY_SSIZE_T_MAX - b->len) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t need = b->len + extra;
    if (need <= b->cap)
        return 0;
    Py_ssize_t cap = b->cap ? b->cap : 4096;
    while (cap < need)
        cap = cap > PY_SSIZE_T_MAX / 2 ? need : cap * 2;
    char *p = PyMem_Realloc(b->data, (size_t)cap);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

static int buf_put(Buf *b, const char *s, Py_ssize_t n) {
    if (buf_reserve(b, n) < 0)
        return -1;
    memcpy(b->data + b->len, s, (size_t)n);
    b->len += n;
    return 0;
}

static int buf_put_bytes(Buf *b, PyObject *bytes) {
    return buf_put(b, PyBytes_AS_STRING(bytes), PyBytes_GET_SIZE(bytes));
}

static const char HEX[] = "0123456789abcdef";

/* Per byte, what my_b_write_quoted writes for it: 0 the byte itself, a letter for a backslash
 * escape, 'x' for \xNN. MySQL escapes \b \f \n \r \t \\ \' by letter; MariaDB only writes control
 * bytes as \xNN. Filled at import by init_escapes. */
static char ESCAPE_MYSQL[256], ESCAPE_MARIADB[256];

static void init_escapes(void) {
    for (int c = 0; c < 32; c++)
        ESCAPE_MYSQL[c] = ESCAPE_MARIADB[c] = 'x';
    ESCAPE_MYSQL[8] = 'b';
    ESCAPE_MYSQL[12] = 'f';
    ESCAPE_MYSQL[10] = 'n';
    ESCAPE_MYSQL[13] = 'r';
    ESCAPE_MYSQL[9] = 't';
    ESCAPE_MYSQL['\\'] = '\\';
    ESCAPE_MYSQL['\''] = '\'';
}

/* One byte as my_b_write_quoted writes it, at o (room for 4 bytes); returns the new end. */
static inline char *quote_byte(char *o, unsigned char c, const char *escape) {
    char e = escape[c];
    if (!e) {
        *o++ = (char)c;
    } else if (e != 'x') {
        *o++ = '\\';
        *o++ = e;
    } else {
        *o++ = '\\';
        *o++ = 'x';
        *o++ = HEX[c >> 4];
        *o++ = HEX[c & 15];
    }
    return o;
}

/* Room for n bytes quoted (4 each at worst) and the two quotes. */
static int reserve_quoted(Buf *b, Py_ssize_t n) {
    if (n > (PY_SSIZE_T_MAX - 2) / 4) {
        PyErr_NoMemory();
        return -1;
    }
    return buf_reserve(b, 4 * n + 2);
}

/* my_b_write_quoted, with the surrounding quotes. */
static int put_quoted(Buf *b, const unsigned char *s, Py_ssize_t n, int mariadb) {
    if (reserve_quoted(b, n) < 0)
        return -1;
    const char *escape = mariadb ? ESCAPE_MARIADB : ESCAPE_MYSQL;
    char *o = b->data + b->len;
    *o++ = '\'';
    Py_ssize_t i = 0;
    while (i < n) {
        Py_ssize_t run = i;
        while (run < n && !escape[s[run]])
            run++;
        memcpy(o, s + i, (size_t)(run - i));
        o += run - i;
        if (run < n)
            o = quote_byte(o, s[run++], escape);
        i = run;
    }
    *o++ = '\'';
    b->len = o - b->data;
    return 0;
}

/* Per ASCII byte its hex digit value, -1 for anything else. Filled at import. */
static signed char HEXVAL[256];

static void init_hexval(void) {
    memset(HEXVAL, -1, sizeof HEXVAL);
    for (int c = 0; c < 10; c++)
        HEXVAL['0' + c] = (signed char)c;
    for (int c = 0; c < 6; c++)
        HEXVAL['a' + c] = HEXVAL['A' + c] = (signed char)(10 + c);
}

/* my_b_write_quoted of the bytes an even-length hex string stands for, decoded on the way.
 * 1 written, 0 not plain hex (nothing kept: b->len is restored), -1 error. */
static int put_quoted_hex(Buf *b, const unsigned char *h, Py_ssize_t n, int mariadb) {
    if (n % 2)
        return 0; /* bytes.fromhex's error is Python's to raise */
    if (reserve_quoted(b, n / 2) < 0)
        return -1;
    const char *escape = mariadb ? ESCAPE_MARIADB : ESCAPE_MYSQL;
    char *o = b->data + b->len;
    *o++ = '\'';
    for (Py_ssize_t i = 0; i < n; i += 2) {
        int hi = HEXVAL[h[i]], lo = HEXVAL[h[i + 1]];
        if ((hi | lo) < 0)
            return 0; /* spaces or other bytes: bytes.fromhex's rules, in Python */
        o = quote_byte(o, (unsigned char)(hi << 4 | lo), escape);
    }
    *o++ = '\'';
    b->len = o - b->data;
    return 1;
}

/* Decimal digits of u at the end of tmp (which holds 20): returns where they start. */
static char *utoa(uint64_t u, char *end) {
    do {
        *--end = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    return end;
}

/* '-' for negative, then the digits of magnitude. */
static int put_int(Buf *b, int negative, uint64_t magnitude) {
    char tmp[24], *end = tmp + sizeof tmp, *p = utoa(magnitude, end);
    if (negative)
        *--p = '-';
    return buf_put(b, p, end - p);
}

/* A value printer: 1 handled, 0 not handled (Python renders the image), -1 error set. */
typedef int (*Printer)(Buf *, PyObject *, long, int);

static PyObject *KEY_VALUE, *KEY_TYPE, *KEY_VALUES; /* interned "value", "type", "values", made at import */

/* The dict value's "value" entry when it is a str, else NULL (no error set). */
static PyObject *dict_value_str(PyObject *v) {
    if (!PyDict_CheckExact(v))
        return NULL;
    PyObject *s = PyDict_GetItemWithError(v, KEY_VALUE); /* borrowed */
    if (s == NULL)
        PyErr_Clear(); /* a key's __eq__ raised: Python meets it again */
    return s != NULL && PyUnicode_CheckExact(s) ? s : NULL;
}

/* The UTF-8 bytes of a str, or NULL with no error set when it holds surrogates (Python's
 * surrogateescape/strict rules then decide). */
static const char *utf8_of(PyObject *s, Py_ssize_t *n) {
    const char *p = PyUnicode_AsUTF8AndSize(s, n);
    if (p == NULL && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
        PyErr_Clear();
    return p;
}

/* A plain int as a long long: 1 done (*overflow set when it does not fit), 0 not a plain int,
 * -1 error. */
static int int64_of(PyObject *v, long long *x, int *overflow) {
    if (!PyLong_CheckExact(v))
        return 0;
    *x = PyLong_AsLongLongAndOverflow(v, overflow);
    return *x == -1 && PyErr_Occurred() ? -1 : 1;
}

/* The value as 0 <= u < 2**64, or 0 (not handled) when it is not a plain int in that range. */
static int uint64_of(PyObject *v, uint64_t *u) {
    if (!PyLong_CheckExact(v))
        return 0;
    unsigned long long y = PyLong_AsUnsignedLongLong(v);
    if (y == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear(); /* negative or past 64 bits: Python decides */
        return 0;
    }
    *u = (uint64_t)y;
    return 1;
}

/* v modulo 2**64 for a plain int in [-2**63, 2**64): 1 done, 0 outside (Python's modulo
 * decides), -1 error. */
static int wrapped_uint64(PyObject *v, uint64_t *u) {
    long long x;
    int overflow, rc = int64_of(v, &x, &overflow);
    if (rc <= 0 || overflow < 0)
        return rc < 0 ? -1 : 0;
    if (overflow > 0)
        return uint64_of(v, u);
    *u = (uint64_t)x;
    return 1;
}

static int print_int(Buf *b, PyObject *v, long width, int mariadb) {
    (void)mariadb;
    uint64_t u;
    if (width < 1 || width > 8)
        return 0;
    int rc = wrapped_uint64(v, &u);
    if (rc <= 0)
        return rc;
    int bits = (int)width * 8;
    if (bits < 64)
        u &= ((uint64_t)1 << bits) - 1;
    if (!((u >> (bits - 1)) & 1))
        return put_int(b, 0, u) < 0 ? -1 : 1;
    /* negative as signed: '-s (u)', s's magnitude being 2**bits - u */
    uint64_t magnitude = bits < 64 ? ((uint64_t)1 << bits) - u : (uint64_t)0 - u;
    if (put_int(b, 1, magnitude) < 0 || buf_put(b, " (", 2) < 0 || put_int(b, 0, u) < 0 || buf_put(b, ")", 1) < 0)
        return -1;
    return 1;
}

/* b"%-20g" / b"%-.20g" as Python formats them (PyOS_double_to_string, then left-justified). */
static int print_real(Buf *b, PyObject *v, int precision, int width) {
    if (!PyFloat_CheckExact(v))
        return 0;
    char *s = PyOS_double_to_string(PyFloat_AS_DOUBLE(v), 'g', precision, 0, NULL);
    if (s == NULL)
        return -1;
    Py_ssize_t n = (Py_ssize_t)strlen(s);
    int rc = buf_put(b, s, n);
    PyMem_Free(s);
    if (rc < 0)
        return -1;
    for (; n < width; n++)
        if (buf_put(b, " ", 1) < 0)
            return -1;
    return 1;
}

static int print_float(Buf *b, PyObject *v, long p, int m) { (void)p; (void)m; return print_real(b, v, 6, 20); }
static int print_double(Buf *b, PyObject *v, long p, int m) { (void)p; (void)m; return print_real(b, v, 20, 0); }

static int print_quoted(Buf *b, PyObject *v, long p, int mariadb) {
    (void)p;
    Py_ssize_t n;
    if (PyUnicode_CheckExact(v)) {
        const char *s = utf8_of(v, &n);
        if (s == NULL)
            return PyErr_Occurred() ? -1 : 0;
        return put_quoted(b, (const unsigned char *)s, n, mariadb) < 0 ? -1 : 1;
    }
    PyObject *hex = dict_value_str(v);
    if (hex == NULL || !PyUnicode_IS_ASCII(hex))
        return 0;
    return put_quoted_hex(b, PyUnicode_1BYTE_DATA(hex), PyUnicode_GET_LENGTH(hex), mariadb);
}

/* The UTF-8 of the dict value's "value" str: 1 found, 0 not that shape, -1 error. */
static int text_of(PyObject *v, const char **s, Py_ssize_t *n) {
    PyObject *text = dict_value_str(v);
    *s = text ? utf8_of(text, n) : NULL;
    if (*s == NULL)
        return PyErr_Occurred() ? -1 : 0;
    return 1;
}

static int print_text(Buf *b, PyObject *v, long p, int m) {
    (void)p; (void)m;
    const char *s;
    Py_ssize_t n;
    int rc = text_of(v, &s, &n);
    return rc <= 0 ? rc : buf_put(b, s, n) < 0 ? -1 : 1;
}

static int print_quoted_unsigned_text(Buf *b, PyObject *v, long p, int mariadb) {
    (void)p;
    const char *s;
    Py_ssize_t n;
    int rc = text_of(v, &s, &n);
    for (; rc > 0 && n > 0 && *s == '-'; n--)
        s++;
    return rc <= 0 ? rc : put_quoted(b, (const unsigned char *)s, n, mariadb) < 0 ? -1 : 1;
}

static int print_quoted_text(Buf *b, PyObject *v, long p, int mariadb) {
    (void)p;
    const char *s;
    Py_ssize_t n;
    int rc = text_of(v, &s, &n);
    return rc <= 0 ? rc : put_quoted(b, (const unsigned char *)s, n, mariadb) < 0 ? -1 : 1;
}

/* Parse 1..4 ASCII digits from s[*i] up to stop or the end; -1 when that is not what is there. */
static long digits(const char *s, Py_ssize_t n, Py_ssize_t *i, int max_digits) {
    long x = 0;
    int k = 0;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9') {
        if (++k > max_digits)
            return -1;
        x = x * 10 + (s[*i] - '0');
        (*i)++;
    }
    return k ? x : -1;
}

static int print_date(Buf *b, PyObject *v, long p, int m) {
    (void)p; (void)m;
    PyObject *text = dict_value_str(v);
    if (text == NULL || !PyUnicode_IS_ASCII(text))
        return 0;
    const char *s = (const char *)PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
    long y = digits(s, n, &i, 4);
    if (y < 0 || i >= n || s[i++] != '-')
        return 0;
    long mo = digits(s, n, &i, 2);
    if (mo < 0 || i >= n || s[i++] != '-')
        return 0;
    long d = digits(s, n, &i, 2);
    if (d < 0 || i != n)
        return 0;
    char tmp[12] = {'\'', (char)('0' + y / 1000), (char)('0' + y / 100 % 10), (char)('0' + y / 10 % 10),
                    (char)('0' + y % 10), ':', (char)('0' + mo / 10), (char)('0' + mo % 10), ':',
                    (char)('0' + d / 10), (char)('0' + d % 10), '\''};
    return buf_put(b, tmp, 12) < 0 ? -1 : 1;
}

static int print_year(Buf *b, PyObject *v, long p, int m) {
    (void)p; (void)m;
    long long y;
    int overflow, rc = int64_of(v, &y, &overflow);
    if (rc <= 0 || overflow || y < 0)
        return rc < 0 ? -1 : 0;
    char tmp[24], *end = tmp + sizeof tmp, *digits = utoa(y ? (uint64_t)y : 1900, end);
    while (end - digits < 4)
        *--digits = '0'; /* '%04d' */
    return buf_put(b, digits, end - digits) < 0 ? -1 : 1;
}

static int print_enum(Buf *b, PyObject *v, long p, int m) {
    (void)p; (void)m;
    long long x;
    int overflow, rc = int64_of(v, &x, &overflow);
    if (rc <= 0 || overflow)
        return rc < 0 ? -1 : 0;
    return put_int(b, x < 0, x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x) < 0 ? -1 : 1;
}

/* my_b_write_bit over the low nbits bits of u, most significant first. */
static int put_bits(Buf *b, uint64_t u, int nbits) {
    char tmp[72];
    int k = 0;
    tmp[k++] = 'b';
    tmp[k++] = '\'';
    for (int i = nbits - 1; i >= 0; i--)
        tmp[k++] = (char)('0' + ((u >> i) & 1));
    tmp[k++] = '\'';
    return buf_put(b, tmp, k) < 0 ? -1 : 1;
}

static int print_bit(Buf *b, PyObject *v, long nbits, int m) {
    (void)m;
    uint64_t u;
    if (nbits < 1 || nbits > 64)
        return 0;
    int rc = uint64_of(v, &u);
    return rc <= 0 ? rc : put_bits(b, u, (int)nbits);
}

static int print_set(Buf *b, PyObject *v, long nbytes, int m) {
    (void)m;
    uint64_t u;
    if (nbytes < 1 || nbytes > 8)
        return 0;
    int rc = wrapped_uint64(v, &u); /* Python's % (1 << 64) */
    if (rc <= 0)
        return rc;
    /* The first nbytes little-endian bytes, each printed most significant bit first: byte 0 first. */
    uint64_t shown = 0;
    for (long i = 0; i < nbytes; i++)
        shown = shown << 8 | ((u >> (8 * i)) & 0xFF);
    return put_bits(b, shown, (int)nbytes * 8);
}

static int print_json(Buf *b, PyObject *v, long p, int mariadb) {
    (void)p;
    if (!PyDict_CheckExact(v))
        return 0;
    PyObject *type = PyDict_GetItemWithError(v, KEY_TYPE);
    if (type == NULL)
        PyErr_Clear();
    if (type == NULL || !PyUnicode_CheckExact(type) || PyUnicode_CompareWithASCIIString(type, "json") != 0)
        return 0;
    const char *s;
    Py_ssize_t n;
    int rc = text_of(v, &s, &n);
    if (rc <= 0)
        return rc;
    if (n > 0 && s[0] == '"')
        return 0; /* a top-level string prints unquoted: Python's json.loads does that */
    return put_quoted(b, (const unsigned char *)s, n, mariadb) < 0 ? -1 : 1;
}

static const Printer PRINTERS[] = {
    [K_NONE] = NULL,
    [K_INT] = print_int,
    [K_FLOAT] = print_float,
    [K_DOUBLE] = print_double,
    [K_QUOTED] = print_quoted,
    [K_TEXT] = print_text,
    [K_QUOTED_UNSIGNED_TEXT] = print_quoted_unsigned_text,
    [K_QUOTED_TEXT] = print_quoted_text,
    [K_DATE] = print_date,
    [K_YEAR] = print_year,
    [K_ENUM] = print_enum,
    [K_BIT] = print_bit,
    [K_SET] = print_set,
    [K_JSON] = print_json,
};
#define N_PRINTERS ((long)(sizeof PRINTERS / sizeof PRINTERS[0]))

/* One column: 1 written, 0 not handled, -1 error. */
static int render_column(Buf *b, PyObject *spec, PyObject *v, int mariadb) {
    if (!PyTuple_CheckExact(spec) || PyTuple_GET_SIZE(spec) != 5)
        return 0;
    PyObject *kind_o = PyTuple_GET_ITEM(spec, 0), *param_o = PyTuple_GET_ITEM(spec, 1);
    PyObject *head = PyTuple_GET_ITEM(spec, 2), *tail = PyTuple_GET_ITEM(spec, 3);
    PyObject *null_line = PyTuple_GET_ITEM(spec, 4);
    if (!PyLong_CheckExact(kind_o) || !PyLong_CheckExact(param_o) || !PyBytes_CheckExact(head)
        || !PyBytes_CheckExact(tail) || !PyBytes_CheckExact(null_line))
        return 0;
    long kind = PyLong_AsLong(kind_o), param = PyLong_AsLong(param_o);
    if ((kind == -1 || param == -1) && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (kind <= K_NONE || kind >= N_PRINTERS)
        return 0; /* Python prints the "Don't know" line, or renders a kind of its own */
    if (v == Py_None)
        return buf_put_bytes(b, null_line) < 0 ? -1 : 1;
    if (buf_put_bytes(b, head) < 0)
        return -1;
    int rc = PRINTERS[kind](b, v, param, mariadb);
    if (rc <= 0)
        return rc;
    return buf_put_bytes(b, tail) < 0 ? -1 : 1;
}

/* One image's column lines: 1 written, 0 not handled, -1 error. */
static int render_values(Buf *b, PyObject *columns, PyObject *values, int mariadb) {
    Py_ssize_t n = PyTuple_GET_SIZE(columns);
    if (!PyList_CheckExact(values) || PyList_GET_SIZE(values) != n)
        return 0; /* zip(strict=True) raises it in Python */
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i >= PyList_GET_SIZE(values))
            return 0; /* changed under us (a dict key's __eq__ ran Python code): Python decides */
        PyObject *v = PyList_GET_ITEM(values, i);
        Py_INCREF(v); /* held while printed, whatever runs meanwhile */
        int rc = render_column(b, PyTuple_GET_ITEM(columns, i), v, mariadb);
        Py_DECREF(v);
        if (rc <= 0)
            return rc;
    }
    return 1;
}

static int check_columns(PyObject *columns) {
    if (PyTuple_CheckExact(columns))
        return 0;
    PyErr_SetString(PyExc_TypeError, "columns must be a tuple (render_rows.Table.fast_columns)");
    return -1;
}

/* The output buffer, kept between calls so that a big event does not pay for growing a fresh one
 * (realloc copies, and mmap'd pages faulted in anew) every time. A call that finds it taken (a
 * dict key's __eq__ re-entering us) uses a fresh one; one grown past SPARE_MAX is let go. */
static Buf spare = {NULL, 0, 0};
static int spare_taken = 0;
#define SPARE_MAX ((Py_ssize_t)16 << 20)

/* A buffer to write into; *owns_spare says whether it is the spare (to give back in finish). */
static Buf take_buffer(int *owns_spare) {
    Buf b = {NULL, 0, 0};
    *owns_spare = !spare_taken;
    if (*owns_spare) {
        spare_taken = 1;
        b = spare;
        b.len = 0;
    }
    return b;
}

/* The buffer as bytes (rc 1), None (rc 0: Python renders), or NULL (rc -1); the buffer is given
 * back (the spare) or freed. */
static PyObject *finish(Buf *b, int rc, int owns_spare) {
    PyObject *out = rc > 0 ? PyBytes_FromStringAndSize(b->data, b->len) : NULL;
    if (owns_spare && b->cap <= SPARE_MAX) {
        spare = *b;
    } else {
        PyMem_Free(b->data);
        if (owns_spare)
            spare = (Buf){NULL, 0, 0};
    }
    if (owns_spare)
        spare_taken = 0;
    if (rc == 0)
        Py_RETURN_NONE;
    return out;
}

/* Both entry points take 4 arguments, the last the MariaDB switch: its truth, or -1 (error set). */
static int mariadb_arg(const char *name, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "%s takes 4 arguments (%zd given)", name, nargs);
        return -1;
    }
    return PyObject_IsTrue(args[3]);
}

static PyObject *render_image(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    int mariadb = mariadb_arg("render_image", args, nargs);
    if (mariadb < 0)
        return NULL;
    PyObject *clause = args[0], *columns = args[1], *values = args[2];
    if (!PyBytes_CheckExact(clause)) {
        PyErr_SetString(PyExc_TypeError, "clause must be bytes");
        return NULL;
    }
    if (check_columns(columns) < 0)
        return NULL;
    int owns_spare;
    Buf b = take_buffer(&owns_spare);
    int rc = buf_put_bytes(&b, clause);
    if (rc == 0)
        rc = render_values(&b, columns, values, mariadb);
    return finish(&b, rc, owns_spare);
}

/* One image of a row: row itself (key NULL) or row[key], its "values" rendered after clause. */
static int render_row_image(Buf *b, PyObject *row, PyObject *key, PyObject *clause, PyObject *columns,
                            int mariadb) {
    if (!PyDict_CheckExact(row))
        return 0;
    PyObject *image = row;
    if (key != Py_None) {
        image = PyDict_GetItemWithError(row, key);
        if (image == NULL || !PyDict_CheckExact(image)) {
            PyErr_Clear();
            return 0;
        }
    }
    Py_INCREF(image);
    PyObject *values = PyDict_GetItemWithError(image, KEY_VALUES);
    int rc = 0;
    if (values == NULL) {
        PyErr_Clear();
    } else {
        Py_INCREF(values);
        rc = buf_put_bytes(b, clause) < 0 ? -1 : render_values(b, columns, values, mariadb);
        Py_DECREF(values);
    }
    Py_DECREF(image);
    return rc;
}

/* render_rows(rows, header, images, mariadb) -> bytes | None: every row's header line, then its
 * images; images is a tuple of (key, clause, columns), key None for the row itself (write,
 * delete) or "before_image" / "after_image" (update). None when any image is not handled. */
static PyObject *render_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    int mariadb = mariadb_arg("render_rows", args, nargs);
    if (mariadb < 0)
        return NULL;
    PyObject *rows = args[0], *header = args[1], *images = args[2];
    if (!PyList_CheckExact(rows) || !PyBytes_CheckExact(header) || !PyTuple_CheckExact(images)) {
        PyErr_SetString(PyExc_TypeError, "render_rows(rows: list, header: bytes, images: tuple, mariadb)");
        return NULL;
    }
    Py_ssize_t n_images = PyTuple_GET_SIZE(images);
    for (Py_ssize_t k = 0; k < n_images; k++) {
        PyObject *spec = PyTuple_GET_ITEM(images, k);
        if (!PyTuple_CheckExact(spec) || PyTuple_GET_SIZE(spec) != 3 || !PyBytes_CheckExact(PyTuple_GET_ITEM(spec, 1))
            || check_columns(PyTuple_GET_ITEM(spec, 2)) < 0) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "images: a tuple of (key, clause: bytes, columns: tuple)");
            return NULL;
        }
    }
    int owns_spare;
    Buf b = take_buffer(&owns_spare);
    int rc = 1;
    for (Py_ssize_t r = 0; rc > 0 && r < PyList_GET_SIZE(rows); r++) {
        PyObject *row = PyList_GET_ITEM(rows, r);
        Py_INCREF(row);
        rc = buf_put_bytes(&b, header) < 0 ? -1 : 1;
        for (Py_ssize_t k = 0; rc > 0 && k < n_images; k++) {
            PyObject *spec = PyTuple_GET_ITEM(images, k);
            rc = render_row_image(&b, row, PyTuple_GET_ITEM(spec, 0), PyTuple_GET_ITEM(spec, 1),
                                  PyTuple_GET_ITEM(spec, 2), mariadb);
        }
        Py_DECREF(row);
    }
    return finish(&b, rc, owns_spare);
}

static PyMethodDef METHODS[] = {
    {"render_rows", (PyCFunction)(void (*)(void))render_rows, METH_FASTCALL,
     "render_rows(rows, header, images, mariadb) -> bytes | None: every row's ### lines, "
     "or None when render_rows.py must render the event."},
    {"render_image", (PyCFunction)(void (*)(void))render_image, METH_FASTCALL,
     "render_image(clause, columns, values, mariadb) -> bytes | None: one row image's ### lines, "
     "or None when render_rows.py must render it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "oracle._render",
                                    "C twin of render_rows.py's row renderer.", -1, METHODS,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__render(void) {
    init_escapes();
    init_hexval();
    if (KEY_VALUE == NULL && (KEY_VALUE = PyUnicode_InternFromString("value")) == NULL)
        return NULL;
    if (KEY_TYPE == NULL && (KEY_TYPE = PyUnicode_InternFromString("type")) == NULL)
        return NULL;
    if (KEY_VALUES == NULL && (KEY_VALUES = PyUnicode_InternFromString("values")) == NULL)
        return NULL;
    return PyModule_Create(&MODULE);
}

# longdoc HTTP API: docker build -t longdoc . && docker run -p 8000:8000 --env-file .env longdoc
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    LONGDOC_DATA_DIR=/data

RUN useradd --create-home --uid 10001 longdoc \
    && mkdir /data \
    && chown longdoc /data

WORKDIR /app

# Dependencies first, from pyproject.toml alone: this layer is rebuilt only when they change.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
    && pip install --no-cache-dir -r requirements.txt

# Then the code, without touching the dependencies again.
COPY README.md ./
COPY pipeline ./pipeline
COPY api ./api
RUN pip install --no-cache-dir --no-deps .

USER 10001
VOLUME /data
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]

CMD ["longdoc", "serve", "--host", "0.0.0.0", "--port", "8000"]
